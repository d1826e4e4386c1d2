import { SHELL_CONTROL } from './permission-rule.js';

/** Commands whose second word says what they do: "git status" and "git push" are different grants. */
const SUBCOMMAND_TOOLS = new Set(['git', 'npm', 'pnpm', 'yarn', 'npx', 'bun', 'cargo', 'go', 'docker', 'kubectl', 'make', 'pip', 'uv', 'poetry', 'gh', 'dotnet', 'mvn', 'gradle', 'python', 'python3', 'node']);

/**
 * The rule an "always" answer grants for the rest of the session: all file edits for an edit
 * tool, the command's leading words for shell ("bash(git status*)"), the tool itself otherwise.
 */
export function alwaysScope(tool: string, args: unknown, editTools: Set<string>): string {
  if (tool === 'edit_file' || tool === 'write_file') return 'edit';
  if (editTools.has(tool)) return tool;
  const command = (args as { command?: unknown } | null)?.command;
  if (tool === 'bash' && typeof command === 'string') {
    // A prefix grant never covers a chained command, so "always" for one means this exact command.
    if (SHELL_CONTROL.test(command.trim())) return `bash(${command.trim()})`;
    const words = command.trim().split(/\s+/);
    const first = words[0] ?? '';
    const second = words[1];
    const prefix = SUBCOMMAND_TOOLS.has(first) && second && /^[\w:.-]+$/.test(second) ? `${first} ${second}` : first;
    return `bash(${prefix.replace(/[()*]/g, '')}*)`;
  }
  return tool;
}
