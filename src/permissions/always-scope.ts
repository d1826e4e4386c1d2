import { exactCommandPattern, SHELL_CONTROL } from './permission-rule.js';

/** Commands whose second word says what they do: "git status" and "git push" are different grants. */
const SUBCOMMAND_TOOLS = new Set(['git', 'npm', 'pnpm', 'yarn', 'npx', 'bun', 'cargo', 'go', 'docker', 'kubectl', 'make', 'pip', 'uv', 'poetry', 'gh', 'dotnet', 'mvn', 'gradle', 'python', 'python3', 'node']);

/**
 * Commands that run whatever their arguments say (shells, interpreters, wrappers, find -exec):
 * "always" for `bash -c 'echo hi'` must not become `bash(bash*)`, which would allow any command.
 */
const RUNS_ANYTHING = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'eval', 'exec', 'source', '.', 'command', 'builtin', 'env', 'sudo', 'doas', 'su', 'xargs', 'find', 'nohup', 'nice', 'timeout', 'time', 'watch', 'setsid', 'stdbuf', 'perl', 'ruby', 'php', 'lua', 'awk', 'gawk', 'sed', 'deno', 'tclsh', 'osascript', 'ssh', 'script']);

/**
 * The rule an "always" answer grants for the rest of the session: all file edits for an edit
 * tool, the command's leading words for shell ("bash(git status*)"), the tool itself otherwise.
 */
export function alwaysScope(tool: string, args: unknown, editTools: Set<string>): string {
  if (tool === 'edit_file' || tool === 'write_file') return 'edit';
  if (editTools.has(tool)) return tool;
  const command = (args as { command?: unknown } | null)?.command;
  if (tool === 'bash' && typeof command === 'string') {
    const trimmed = command.trim();
    const exact = `bash(${exactCommandPattern(trimmed)})`;
    // A prefix grant never covers a chained command, so "always" for one means this exact command.
    if (SHELL_CONTROL.test(trimmed)) return exact;
    const words = trimmed.split(/\s+/);
    const first = words[0] ?? '';
    const second = words[1];
    // Also exact: a path or an assignment first (`./x`, `X=1 y`), an option before the subcommand
    // (`git -c core.pager=… status`, `python -c …`, `node -e …`), or a command that runs anything.
    if (RUNS_ANYTHING.has(first) || first.includes('/') || first.includes('=') || first.includes('\\') || /^["']/.test(first)) return exact;
    if (SUBCOMMAND_TOOLS.has(first) && second !== undefined && !/^[\w:.][\w:.-]*$/.test(second)) return exact;
    const prefix = SUBCOMMAND_TOOLS.has(first) && second ? `${first} ${second}` : first;
    return `bash(${prefix.replace(/[()*]/g, '')}*)`;
  }
  const url = (args as { url?: unknown } | null)?.url;
  if (tool === 'fetch_url' && typeof url === 'string') {
    try {
      const { origin } = new URL(url);
      if (origin !== 'null') return `fetch_url(${origin}/*)`;
    } catch {
      // An unparsable URL fails in the tool; "always" then grants only the tool's exact call.
    }
    return `fetch_url(${url.replace(/[()*]/g, '')})`;
  }
  return tool;
}
