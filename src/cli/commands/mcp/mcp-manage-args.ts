import type { CommandOption } from '../../args/command-options.js';
import type { CommandInput } from '../../args/command-spec.js';
import { UsageError } from '../../settings/usage-error.js';

/** The words after `mcp` that edit the servers' configuration. */
export const MCP_MANAGE_WORDS = ['add', 'add-json', 'remove', 'get'] as const;
export type McpManageAction = (typeof MCP_MANAGE_WORDS)[number];

/** `mcp add|add-json|remove|get` as given: the checks of what the words mean are the command's. */
export interface McpManageArgs {
  action: McpManageAction;
  /** The words after the action, up to `--` (NAME, then a command or URL and its arguments). */
  words: string[];
  /** The words after `--`: a stdio server's command and arguments; absent when there was no `--`. */
  command?: string[];
  scope?: string;
  transport?: string;
  /** `-e KEY=value`, as given. */
  env: string[];
  /** `--header "Name: value"`, as given. */
  headers: string[];
  force: boolean;
  verify: boolean;
}

/** Claude Code's `mcp add` flags (`-s`, `-t`, `-e`, `-H`), and ours (`--force`, `--no-verify`). */
export const MCP_MANAGE_FLAGS: CommandOption[] = [
  { flag: 'scope', short: 's', value: 'user|project', help: 'with add, add-json, remove: user: your config, every workspace (default); project: the workspace\'s .mcp.json (shared, as Claude Code writes it)' },
  { flag: 'transport', short: 't', value: 'stdio|http|sse', help: 'with add: default http for a URL, else stdio' },
  { flag: 'env', short: 'e', value: 'KEY=value', multiple: true, help: 'with add: an environment variable of a stdio server (repeatable); write a secret as ${VAR}' },
  { flag: 'header', short: 'H', value: '"Name: value"', multiple: true, help: 'with add: a header of a remote server (repeatable)' },
  { flag: 'force', help: 'with add: replace a server of that name in the same file' },
  { flag: 'no-verify', help: 'with add, add-json: write without starting the server first' },
];

/** `mcp add|add-json|remove|get …` as the strict parser found it; undefined for the other words. */
export function mcpManageArgs({ words, passthrough, flags }: CommandInput): McpManageArgs | undefined {
  const action = words[0];
  if (!(MCP_MANAGE_WORDS as readonly string[]).includes(action ?? '')) {
    const own = MCP_MANAGE_FLAGS.map((option) => option.flag).find((flag) => flags[flag] !== undefined && flags[flag] !== false);
    if (own) throw new UsageError(`--${own} only applies to "vibe-agent mcp add", "add-json", "remove" or "get"; see vibe-agent mcp --help.`);
    return undefined;
  }
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
  const scope = text(flags.scope);
  const transport = text(flags.transport);
  return {
    action: action as McpManageAction,
    words: words.slice(1),
    ...(passthrough.length ? { command: passthrough } : {}),
    ...(scope !== undefined ? { scope } : {}),
    ...(transport !== undefined ? { transport } : {}),
    env: list(flags.env),
    headers: list(flags.header),
    force: flags.force === true,
    verify: flags['no-verify'] !== true,
  };
}
