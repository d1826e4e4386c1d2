import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Tool } from '../contracts/tool.js';
import { picomatchPackage } from '../workspace/picomatch-package.js';
import { commandForms } from './command-forms.js';

/**
 * A rule from the config: a tool name (or an alias a tool declares, or "*"), optionally with a
 * pattern on the subject the tool declares for its calls: `shell(git status*)`, `edit(src/**)`.
 */
export interface PermissionRule {
  text: string;
  name: string;
  pattern?: string;
}

/** What a rule needs of a tool: its name and how it is permitted. */
export type RuleTarget = Pick<Tool, 'name' | 'permission'>;

/** `tool(domain:example.com)`: a URL whose host is that domain or under it; other subjects never match. */
export const DOMAIN_PREFIX = 'domain:';

// An MCP server or tool as configured may hold any character but space and parentheses (`mcp__my.srv`).
const RULE = /^(mcp__[^\s()]+|[A-Za-z0-9_*-]+)(?:\((.*)\))?$/s;

export function parseRule(text: string): PermissionRule {
  const match = RULE.exec(text.trim());
  if (!match) throw new Error(`Permission rule "${text}" is not of the form tool or tool(pattern), e.g. "shell(git status*)" or "edit(src/**)".`);
  const rule: PermissionRule = { text, name: match[1]! };
  if (match[2] !== undefined && match[2] !== '' && match[2] !== '*') rule.pattern = match[2];
  // A deny rule whose domain can never match a host would hold for nothing, silently.
  if (rule.pattern?.startsWith(DOMAIN_PREFIX) && !/^(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$|^\[[0-9a-f:.]+\]$/i.test(rule.pattern.slice(DOMAIN_PREFIX.length).trim())) {
    throw new Error(`Permission rule "${text}": after "domain:" comes a host name, e.g. "fetch(domain:example.com)" or "web_search(domain:*.example.com)".`);
  }
  return rule;
}

/**
 * Whether the rule names this tool: "*", its own name, or an alias it declares (any case). A
 * tool with an identity (see ToolPermission) is allowed only by that; a deny rule may name it
 * either way (failing closed).
 */
export function ruleCovers(rule: PermissionRule, tool: RuleTarget, use: 'allow' | 'deny' = 'allow'): boolean {
  if (rule.name === '*') return true;
  const { identity, aliases = [] } = tool.permission;
  if (identity && (rule.name === identity.name || rule.name === identity.group)) return true;
  if (identity && use === 'allow') return false;
  return rule.name === tool.name || aliases.some((alias) => alias.toLowerCase() === rule.name.toLowerCase());
}

/** Characters that chain or redirect commands: "git status; rm -rf ~" must not pass as "git status*". */
export const SHELL_CONTROL = /[;&|`<>\n]|\$\(/;

export function matchesRule(rule: PermissionRule, tool: RuleTarget, args: unknown, workspace: string, use: 'allow' | 'deny'): boolean {
  if (!ruleCovers(rule, tool, use)) return false;
  if (rule.pattern === undefined) return true;
  const subject = tool.permission.subject?.(args);
  // A pattern this tool's calls cannot be checked against: a deny rule naming the tool holds for
  // every call (failing closed); "*(pattern)" means the tools that have a subject.
  if (!subject) return use === 'deny' && rule.name !== '*';
  if (subject.kind === 'file-path') {
    const matcher = picomatchPackage()(rule.pattern, { dot: true });
    const paths = [subject.value, ...(subject.also ?? [])].flatMap((path) => workspacePaths(path, workspace));
    return use === 'deny' ? paths.some((path) => matcher(path)) : paths.every((path) => matcher(path));
  }
  if (subject.kind === 'shell-command') return matchesCommand(rule.pattern, subject.value, use);
  if (rule.pattern.startsWith(DOMAIN_PREFIX)) return subject.kind === 'web-url' && matchesDomain(rule.pattern.slice(DOMAIN_PREFIX.length), subject.value);
  return wildcard(rule.pattern).test(subject.value);
}

function matchesDomain(pattern: string, url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/\.$/, '');
  } catch {
    return false;
  }
  const domain = pattern.trim().toLowerCase().replace(/\.$/, '');
  if (domain === '') return false;
  return wildcard(domain).test(host) || wildcard(`*.${domain}`).test(host);
}

/** The realpath of a path that may not exist yet (its deepest existing ancestor, resolved). */
export function realpathAllowingMissing(path: string): string {
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
 * if any segment of a chain matches, so "ls && rm -rf x" is caught by "shell(rm *)".
 */
function matchesCommand(pattern: string, command: string, use: 'allow' | 'deny'): boolean {
  const trimmed = command.trim();
  if (use === 'allow') return (!SHELL_CONTROL.test(trimmed) || SHELL_CONTROL.test(pattern)) && wildcard(pattern, true).test(trimmed);
  const re = wildcard(pattern);
  if (re.test(trimmed)) return true;
  return trimmed
    .split(/;|&&|\|\||\||&|\n|\$\(|`/)
    .map((segment) => segment.replace(/[()]/g, ' ').trim())
    .some((segment) => segment !== '' && commandForms(segment).some((form) => re.test(form)));
}

/**
 * `*` matches any run of characters (spaces included); `\*` is a literal star; everything else is
 * literal. With `wordEnd`, a trailing star right after a word character starts a new word, so an
 * allowed `ls*` covers `ls` and `ls -la` but not `lsx`.
 */
function wildcard(pattern: string, wordEnd = false): RegExp {
  const parts = pattern.split(/(?<!\\)\*/).map((part) => part.replaceAll('\\*', '*').replace(/[.+?^${}()|[\]\\*]/g, '\\$&'));
  const last = parts.length > 1 ? parts.pop()! : undefined;
  const boundary = wordEnd && last === '' && /\w$/.test(parts[parts.length - 1]!);
  const body = parts.join('.*') + (last === undefined ? '' : boundary ? '(?:\\s.*)?' : `.*${last}`);
  return new RegExp(`^${body}$`, 's');
}

/** A value as a pattern that matches only itself (its stars escaped). */
export function exactPattern(value: string): string {
  return value.replaceAll('*', '\\*');
}
