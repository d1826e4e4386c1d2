import type { Tool } from '../contracts/tool.js';
import { exactPattern, matchesRule, type PermissionRule } from './permission-rule.js';

/**
 * What an approved plan said it would touch: the entries of its `Files:` and `Commands:` lists
 * (the format PLAN_MODE_PROMPT asks for). A file entry is a workspace path or a glob (`src/**`);
 * a directory entry ending in `/` covers what is under it. A command entry matches that command
 * exactly, or, ending in `*`, every command it starts (`npm test*`).
 */
export interface PlanScope {
  files: string[];
  commands: string[];
  /** Lists whose heading is followed by text that is neither an item nor blank: nothing was read from them. */
  unread?: Array<'files' | 'commands'>;
}

/** A heading line that opens one of the two lists: `Files:`, `## Commands`, `**Files to change:**`. */
const HEADING = /^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*(files|commands)\b[^:\n]*:?\s*(?:\*\*|__)?\s*:?\s*$/i;
/** A list written on its heading's line: `Files: a.ts, b.ts`, `**Commands:** npm test, git status`. */
const INLINE = /^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*(files|commands)\b[^:\n]*:\s*(?:\*\*|__)?\s*(\S.*?)\s*$/i;
/** A list item: `- x`, `* x`, `1. x`. */
const ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(.+?)\s*$/;

/**
 * Reads the two lists from a plan's text. A list runs from its heading to the first line that is
 * neither an item nor blank; its heading's line may hold entries too (`Files: a.ts, b.ts`). An item's value is its first `code span` when it has one (so
 * "- `src/a.ts`: add the flag" names src/a.ts), else the text before " — ", " - " or ": ".
 */
export function parsePlanScope(plan: string): PlanScope {
  const scope: PlanScope = { files: [], commands: [] };
  let list: string[] | undefined;
  // The list under a heading with nothing on its line, until its first item.
  let empty: 'files' | 'commands' | undefined;
  for (const line of plan.split('\n')) {
    const heading = HEADING.exec(line) ?? INLINE.exec(line);
    if (heading) {
      const files = heading[1]!.toLowerCase() === 'files';
      list = files ? scope.files : scope.commands;
      empty = heading[2] === undefined ? (files ? 'files' : 'commands') : undefined;
      if (heading[2] !== undefined) list.push(...inlineValues(heading[2], files));
      continue;
    }
    if (!list) continue;
    if (line.trim() === '') continue;
    const item = ITEM.exec(line);
    if (!item) {
      if (empty && !(scope.unread ??= []).includes(empty)) scope.unread.push(empty);
      list = undefined;
      empty = undefined;
      continue;
    }
    empty = undefined;
    const value = itemValue(item[1]!);
    if (value && !/^\(?none\)?\.?$/i.test(value)) list.push(value);
  }
  return scope;
}

/**
 * The entries of a one-line list: its code spans when it has any, else its comma-separated parts
 * (file paths also space-separated: a path with a space must be a code span or an item of its own).
 */
function inlineValues(text: string, files: boolean): string[] {
  const spans = [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!.trim());
  const parts = spans.length ? spans : text.split(files ? /[,;]\s*|\s+/ : /[,;]\s*/).map((part) => part.trim().replace(/\.$/, ''));
  return parts.filter((part) => part !== '' && !/^\(?none\)?\.?$/i.test(part));
}

function itemValue(text: string): string {
  const code = /`([^`]+)`/.exec(text);
  if (code) return code[1]!.trim();
  return text.split(/\s+[—–-]\s+|:\s/)[0]!.trim();
}

/** The plan's lists as allow rules for the permission rule matcher. */
function scopeRules(scope: PlanScope): PermissionRule[] {
  const files = scope.files.map((path) => {
    const clean = path.replace(/^\.\//, '');
    const pattern = clean.endsWith('/') ? `${clean}**` : clean;
    return { text: `edit(${pattern})`, name: '*', pattern };
  });
  // A listed command is literal unless it ends in a star: `make *` widens, `echo a*b` does not.
  const commands = scope.commands.map((command) => {
    const pattern = command.endsWith('*') ? `${exactPattern(command.slice(0, -1))}*` : exactPattern(command);
    return { text: `shell(${command})`, name: '*', pattern };
  });
  return [...files, ...commands];
}

/**
 * Why a call falls outside the approved plan, or undefined when the plan covers it. Only calls
 * with a file path or a shell command are checked: other tools (fetch, MCP tools) follow the mode.
 */
export function planDeviation(scope: PlanScope, tool: Pick<Tool, 'name' | 'permission'>, args: unknown, workspace: string): string | undefined {
  const subject = tool.permission.subject?.(args);
  if (!subject || (subject.kind !== 'file-path' && subject.kind !== 'shell-command')) return undefined;
  const kind = subject.kind === 'file-path' ? 'file-path' : 'shell-command';
  const rules = scopeRules(scope).filter((rule) => (kind === 'file-path' ? rule.text.startsWith('edit(') : rule.text.startsWith('shell(')));
  if (rules.some((rule) => matchesRule(rule, tool, args, workspace, 'allow'))) return undefined;
  return kind === 'file-path'
    ? `the approved plan does not name the file ${subject.value} (its Files: ${scope.files.join(', ') || 'none'})`
    : `the approved plan does not name the command "${subject.value}" (its Commands: ${scope.commands.join(', ') || 'none'})`;
}
