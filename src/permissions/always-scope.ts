import { RUNS_ANYTHING } from './command-wrappers.js';
import { exactPattern, SHELL_CONTROL, type RuleTarget } from './permission-rule.js';

/** Commands whose second word says what they do: "git status" and "git push" are different grants. */
const SUBCOMMAND_TOOLS = new Set(['git', 'npm', 'pnpm', 'yarn', 'npx', 'bun', 'cargo', 'go', 'docker', 'kubectl', 'make', 'pip', 'uv', 'poetry', 'gh', 'dotnet', 'mvn', 'gradle', 'python', 'python3', 'node']);

/**
 * The rule an "always" answer grants for the rest of the session: a command's leading words
 * ("shell(git status*)" as the tool names it), a URL's origin, every search for a search query ("web_search"),
 * exactly the text of another subject, the category for a
 * tool that answers to its name (all file edits: "edit"), the tool itself otherwise (by its
 * identity when it has one: an MCP tool as its server configured it).
 */
export function alwaysScope(tool: RuleTarget, args: unknown): string {
  const { category, aliases = [] } = tool.permission;
  const subject = tool.permission.subject?.(args);
  if (subject?.kind === 'shell-command') return `${tool.name}(${commandScope(subject.value.trim())})`;
  if (subject?.kind === 'web-url') return `${tool.name}(${originScope(subject.value)})`;
  if (subject?.kind === 'search-query') return tool.name;
  if (subject?.kind === 'text' && subject.value !== '') return `${tool.name}(${exactPattern(subject.value)})`;
  if (tool.permission.identity) return tool.permission.identity.name;
  return aliases.includes(category) ? category : tool.name;
}

function commandScope(command: string): string {
  const exact = exactPattern(command);
  // A prefix grant never covers a chained command, so "always" for one means this exact command.
  if (SHELL_CONTROL.test(command)) return exact;
  const words = command.split(/\s+/);
  const first = words[0] ?? '';
  const second = words[1];
  // Also exact: a path or an assignment first (`./x`, `X=1 y`), an option before the subcommand
  // (`git -c core.pager=… status`, `python -c …`, `node -e …`), or a command that runs anything
  // (a shell, an interpreter, a wrapper such as `ionice` or `flock`).
  if (RUNS_ANYTHING.has(first) || first.includes('/') || first.includes('=') || first.includes('\\') || /^["']/.test(first)) return exact;
  if (SUBCOMMAND_TOOLS.has(first) && second !== undefined && !/^[\w:.][\w:.-]*$/.test(second)) return exact;
  const prefix = SUBCOMMAND_TOOLS.has(first) && second ? `${first} ${second}` : first;
  return `${prefix.replace(/[()*]/g, '')}*`;
}

function originScope(url: string): string {
  try {
    const { origin } = new URL(url);
    if (origin !== 'null') return `${origin}/*`;
  } catch {
    // An unparsable URL fails in the tool; "always" then grants only the tool's exact call.
  }
  return url.replace(/[()*]/g, '');
}
