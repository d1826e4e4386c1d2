import { variableReferences } from '../mcp/expand-variables.js';
import { isSecretVariable } from './secret-variables.js';
import type { TrustQuestion } from './trust-question.js';

/** The question for a project's `landChecks`: every command `vibe-agent land` would run, in order. */
export function landChecksQuestion(file: string, checks: readonly string[]): TrustQuestion {
  return {
    heading: `Run the land checks of ${file} (project)? They run as you, in the session's worktree, with your environment:`,
    facts: checks.map((check, index) => {
      const secrets = [...new Set(variableReferences(check))].filter(isSecretVariable);
      return { label: `check ${index + 1}`, value: check, ...(secrets.length ? { warning: `reads your ${secrets.join(', ')}` } : {}) };
    }),
  };
}
