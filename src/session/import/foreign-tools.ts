import type { ToolCall } from '../../contracts/messages.js';
import type { ImportStats } from './import-model.js';

type Args = Record<string, unknown>;
/** A Vibe tool a foreign one matches, and how its arguments translate (undefined: they do not fit, keep it foreign). */
type Mapping = { name: string; args: (args: Args) => Args | undefined };

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const defined = (args: Args): Args => Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
const only = (args: Args, keys: string[]) => Object.keys(args).every((key) => keys.includes(key));

const bash: Mapping = {
  name: 'bash',
  args: (a) => {
    const command = text(a.command) ?? (Array.isArray(a.command) ? shellLine(a.command) : text(a.cmd));
    return command === undefined ? undefined : defined({ command, timeout_ms: typeof a.timeout === 'number' ? a.timeout : typeof a.timeout_ms === 'number' ? a.timeout_ms : undefined });
  },
};
const readFile: Mapping = {
  name: 'read_file',
  args: (a) => {
    const path = text(a.file_path) ?? text(a.path) ?? text(a.absolute_path);
    return path === undefined ? undefined : defined({ path, offset: a.offset, limit: a.limit });
  },
};
const writeFile: Mapping = {
  name: 'write_file',
  args: (a) => {
    const path = text(a.file_path) ?? text(a.path);
    return path === undefined || typeof a.content !== 'string' ? undefined : { path, content: a.content };
  },
};
const editFile: Mapping = {
  name: 'edit_file',
  args: (a) => {
    const path = text(a.file_path) ?? text(a.path);
    const oldString = text(a.old_string) ?? text(a.oldText);
    const newString = text(a.new_string) ?? text(a.newText);
    if (path === undefined || oldString === undefined || newString === undefined) return undefined;
    return defined({ path, old_string: oldString, new_string: newString, replace_all: a.replace_all === true ? true : undefined });
  },
};
const grep: Mapping = {
  name: 'grep',
  args: (a) => (typeof a.pattern === 'string' && only(a, ['pattern', 'path', 'glob', '-i', 'output_mode', 'include', 'dir_path']) ? defined({ pattern: a.pattern, path: text(a.path) ?? text(a.dir_path), glob: text(a.glob) ?? text(a.include), ignore_case: a['-i'] === true ? true : undefined }) : undefined),
};
const listFiles: Mapping = {
  name: 'list_files',
  args: (a) => defined({ pattern: text(a.pattern), path: text(a.path) ?? text(a.dir_path) }),
};

/** Per agent: its tool names that are Vibe's under another name. Anything else stays under its own name, marked foreign. */
const MAPPINGS: Record<string, Record<string, Mapping>> = {
  'claude-code': { Bash: bash, Read: readFile, Write: writeFile, Edit: editFile, Grep: grep, Glob: listFiles },
  codex: { shell: bash, exec_command: bash, local_shell: bash, container_exec: bash },
  'gemini-cli': { run_shell_command: bash, read_file: readFile, write_file: writeFile, replace: editFile, search_file_content: grep, grep_search: grep, glob: listFiles },
  pi: { bash, read: readFile, write: writeFile, edit: editFile, grep, find: listFiles },
};

/** Codex's exec `command` is an argv list: `["bash","-lc","ls"]` is the line `ls`. */
function shellLine(argv: unknown[]): string | undefined {
  if (!argv.every((part) => typeof part === 'string')) return undefined;
  const parts = argv as string[];
  if (parts.length === 3 && /(^|\/)(ba|z)?sh$/.test(parts[0]!) && /^-l?c$/.test(parts[1]!)) return parts[2];
  return parts.map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/**
 * A foreign tool call as a Vibe one: renamed with its arguments translated when a Vibe tool does
 * the same job and every argument fits, else kept as it was under its own name with `foreign: true`
 * beside it (a resumed model sees the call as made; Vibe will not run it again).
 */
export function mapToolCall(agent: string, call: ToolCall, stats: ImportStats): ToolCall & { foreign?: true } {
  stats.toolCalls++;
  const mapping = MAPPINGS[agent]?.[call.name];
  let args: Args | undefined;
  try {
    const parsed: unknown = JSON.parse(call.arguments || '{}');
    args = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Args) : undefined;
  } catch {
    args = undefined;
  }
  const mapped = mapping && args ? mapping.args(args) : undefined;
  if (mapping && mapped) {
    stats.mappedCalls++;
    return { id: call.id, name: mapping.name, arguments: JSON.stringify(mapped) };
  }
  stats.foreignCalls++;
  return { ...call, foreign: true };
}
