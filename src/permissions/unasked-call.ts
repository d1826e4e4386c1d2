import type { ToolCategory } from '../contracts/tool.js';
import { alwaysScope } from './always-scope.js';
import { exactPattern, workspacePaths, type RuleTarget } from './permission-rule.js';

/** A call denied because it needed the user's approval and nobody could be asked (no terminal, no --yes). */
export interface UnaskedCall {
  tool: string;
  /** What the call does, as the approval question would have shown it. */
  summary: string;
  category: ToolCategory;
  /** A `permissions.allow` rule that allows this call (and its like). */
  allow: string;
  /** The call lay outside an approved plan: only an allow rule (or the plan) covers it, whatever the mode. */
  outsidePlan: boolean;
}

// Glob characters a path would need escaped beyond `*`; such a path gets the broader rule.
const GLOB_SPECIAL = /[?[\]{}()!+@\\]/;

/**
 * The allow rule to suggest for a call: a file edit's own path (`edit(src/app.ts)`, narrower than the
 * `edit` an "always" grants), otherwise what "always" would grant (`bash(npm test*)`, a URL's origin).
 */
export function allowRuleFor(tool: RuleTarget, args: unknown, workspace: string): string {
  const subject = tool.permission.subject?.(args);
  if (subject?.kind === 'file-path' && !subject.also?.length) {
    const [path] = workspacePaths(subject.value, workspace);
    const name = (tool.permission.aliases ?? []).includes(tool.permission.category) ? tool.permission.category : tool.name;
    if (path && !path.startsWith('/') && !path.startsWith('..') && !GLOB_SPECIAL.test(path)) return `${name}(${exactPattern(path)})`;
  }
  return alwaysScope(tool, args);
}
