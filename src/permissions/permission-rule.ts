import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { commandForms } from './command-forms.js';

/**
 * A rule from the config: a tool name, optionally with a pattern on its main argument.
 * `bash(git status*)` matches shell commands, `edit(src/**)` paths, `fetch_url(https://docs.*)` URLs.
 */
export interface PermissionRule {
  text: string;
  /** Tool names the rule covers ("*" for all). */
  tools: string[];
  pattern?: string;
}

/** Short names users know from other agents, mapped to our tools. */
const ALIASES: Record<string, string[]> = {
  edit: ['edit_file', 'write_file'],
  write: ['write_file'],
  read: ['read_file'],
  shell: ['bash'],
  fetch: ['fetch_url'],
};

const RULE = /^([A-Za-z0-9_*-]+)(?:\((.*)\))?$/s;

export function parseRule(text: string): PermissionRule {
  const match = RULE.exec(text.trim());
  if (!match) throw new Error(`Permission rule "${text}" is not of the form tool or tool(pattern), e.g. "bash(git status*)" or "edit(src/**)".`);
  const name = match[1]!;
  const rule: PermissionRule = { text, tools: ALIASES[name.toLowerCase()] ?? [name] };
  if (match[2] !== undefined && match[2] !== '' && match[2] !== '*') rule.pattern = match[2];
  return rule;
}

/** The argument a rule's pattern is matched against: the command, the path or the URL. */
export function ruleSubject(args: unknown): { kind: 'command' | 'path' | 'other'; value: string } | undefined {
  if (args === null || typeof args !== 'object') return undefined;
  const record = args as Record<string, unknown>;
  if (typeof record.command === 'string') return { kind: 'command', value: record.command };
  if (typeof record.path === 'string') return { kind: 'path', value: record.path };
  for (const key of ['url', 'pattern', 'name']) if (typeof record[key] === 'string') return { kind: 'other', value: record[key] as string };
  return undefined;
}

/** Characters that chain or redirect commands: "git status; rm -rf ~" must not pass as "git status*". */
export const SHELL_CONTROL = /[;&|`<>\n]|\$\(/;

export function matchesRule(rule: PermissionRule, tool: string, args: unknown, workspace: string, use: 'allow' | 'deny'): boolean {
  if (!rule.tools.includes('*') && !rule.tools.includes(tool)) return false;
  if (rule.pattern === undefined) return true;
  const subject = ruleSubject(args);
  if (!subject) return false;
  if (subject.kind === 'path') {
    const matcher = picomatch(rule.pattern, { dot: true });
    const paths = workspacePaths(subject.value, workspace);
    return use === 'deny' ? paths.some((path) => matcher(path)) : paths.every((path) => matcher(path));
  }
  if (subject.kind === 'command') return matchesCommand(rule.pattern, subject.value, use);
  return wildcard(rule.pattern).test(subject.value);
}

/** The realpath of a path that may not exist yet (its deepest existing ancestor, resolved). */
function realpathAllowingMissing(path: string): string {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      lstatSync(current);
      return join(realpathSync(current), ...missing);
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      missing.unshift(basename(current));
      current = parent;
    }
  }
}

function shownPath(root: string, absolute: string): string {
  const rel = relative(root, absolute);
  const inside = rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
  return (inside ? rel : absolute).split(sep).join('/');
}

/**
 * A tool's path as rules see it: relative to the workspace, both as written and where it really
 * leads, so `edit(.github/**)` also denies `src/link/ci.yml` when `src/link` points at `.github`.
 */
export function workspacePaths(path: string, workspace: string): string[] {
  const lexical = shownPath(workspace, resolve(workspace, path));
  const real = shownPath(realpathAllowingMissing(workspace), realpathAllowingMissing(resolve(workspace, path)));
  return lexical === real ? [lexical] : [lexical, real];
}

/**
 * Allow rules never cover chained commands unless the pattern itself chains; deny rules match
 * if any segment of a chain matches, so "ls && rm -rf x" is caught by "bash(rm *)".
 */
function matchesCommand(pattern: string, command: string, use: 'allow' | 'deny'): boolean {
  const re = wildcard(pattern);
  const trimmed = command.trim();
  if (use === 'allow') return (!SHELL_CONTROL.test(trimmed) || SHELL_CONTROL.test(pattern)) && re.test(trimmed);
  if (re.test(trimmed)) return true;
  return trimmed
    .split(/;|&&|\|\||\||&|\n|\$\(|`/)
    .map((segment) => segment.replace(/[()]/g, ' ').trim())
    .some((segment) => segment !== '' && commandForms(segment).some((form) => re.test(form)));
}

/** `*` matches any run of characters (spaces included); `\*` is a literal star; everything else is literal. */
function wildcard(pattern: string): RegExp {
  const body = pattern
    .split(/(?<!\\)\*/)
    .map((part) => part.replaceAll('\\*', '*').replace(/[.+?^${}()|[\]\\*]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 's');
}

/** A command as a pattern that matches only itself (its stars escaped). */
export function exactCommandPattern(command: string): string {
  return command.replaceAll('*', '\\*');
}
