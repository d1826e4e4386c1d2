import { isAbsolute, resolve } from 'node:path';
import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import type { Tool } from '../contracts/tool.js';

/** Tools whose category is read but whose job is finding things. */
const SEARCH_TOOLS = new Set(['grep', 'list_files', 'search_docs']);
/** Tools that only think aloud (the model's checklist). */
const THINK_TOOLS = new Set(['todo_write', 'todo_read']);

/** The ACP kind of a call, from the permission category the tool declares (the same one the policy uses). */
export function toolKind(name: string, tool: Tool | undefined): ToolKind {
  if (SEARCH_TOOLS.has(name)) return 'search';
  if (THINK_TOOLS.has(name)) return 'think';
  switch (tool?.permission.category) {
    case 'read':
      return 'read';
    case 'edit':
      return 'edit';
    case 'execute':
      return 'execute';
    case 'network':
      return 'fetch';
    default:
      return 'other';
  }
}

type Args = Record<string, unknown>;

const text = (args: Args, key: string): string | undefined => (typeof args[key] === 'string' ? (args[key] as string) : undefined);

/** A line a person reads in the editor's tool list: "Read src/a.ts", "Run `npm test`". */
export function toolTitle(name: string, args: Args): string {
  const path = text(args, 'path');
  const verbs: Record<string, string> = { read_file: 'Read', write_file: 'Write', edit_file: 'Edit', list_files: 'List' };
  if (verbs[name]) return path ? `${verbs[name]} ${path}` : verbs[name]!;
  const command = text(args, 'command');
  if (command !== undefined) return `Run \`${oneLine(command)}\``;
  const url = text(args, 'url');
  if (url !== undefined) return `Fetch ${url}`;
  const pattern = text(args, 'pattern') ?? text(args, 'query');
  if (pattern !== undefined) return `Search ${JSON.stringify(oneLine(pattern))}${path ? ` in ${path}` : ''}`;
  if (name === 'todo_write') return 'Update the plan';
  return name;
}

/** Where the call looks or writes: its path (absolute, as ACP wants) and, for a read from an offset, the line. */
export function toolLocations(workspace: string, args: Args): ToolCallLocation[] {
  const path = text(args, 'path');
  if (path === undefined) return [];
  const line = typeof args.offset === 'number' ? args.offset : undefined;
  return [{ path: absolutePath(workspace, path), ...(line !== undefined ? { line } : {}) }];
}

/**
 * The diff an edit or write will make, for the editor to show: whole-file old and new text when the
 * file can be read and the edit's text is found in it; else the edit's own old and new strings.
 * `readText` is the same access the tools use (the editor's buffer when it offers one).
 */
export async function editDiff(name: string, args: Args, workspace: string, readText: (absolute: string) => Promise<string | undefined>): Promise<{ content: ToolCallContent; line?: number } | undefined> {
  const path = text(args, 'path');
  if (path === undefined) return undefined;
  const absolute = absolutePath(workspace, path);
  const before = await readText(absolute).catch(() => undefined);
  if (name === 'write_file') {
    const content = text(args, 'content') ?? '';
    return { content: { type: 'diff', path: absolute, oldText: before ?? null, newText: content } };
  }
  if (name !== 'edit_file') return undefined;
  const oldString = text(args, 'old_string') ?? '';
  const newString = text(args, 'new_string') ?? '';
  const at = before === undefined || oldString === '' ? -1 : before.indexOf(oldString);
  if (before === undefined || at < 0) return { content: { type: 'diff', path: absolute, oldText: oldString, newText: newString } };
  const after = args.replace_all === true ? before.split(oldString).join(newString) : before.slice(0, at) + newString + before.slice(at + oldString.length);
  return { content: { type: 'diff', path: absolute, oldText: before, newText: after }, line: before.slice(0, at).split('\n').length };
}

function absolutePath(workspace: string, path: string): string {
  return isAbsolute(path) ? path : resolve(workspace, path);
}

function oneLine(value: string): string {
  const first = value.split('\n')[0]!;
  return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}
