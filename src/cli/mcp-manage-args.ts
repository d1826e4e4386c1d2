import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CliArgs } from './args.js';
import { unknownOptionMessage } from './unknown-option.js';
import { UsageError } from './usage-error.js';

/** The words after `mcp` that edit the servers' configuration. */
export const MCP_MANAGE_WORDS = ['add', 'add-json', 'remove', 'get'] as const;
export type McpManageAction = (typeof MCP_MANAGE_WORDS)[number];

/** `mcp add|add-json|remove|get` as given: the checks of what the words mean are the command's. */
export interface McpManageArgs {
  action: McpManageAction | 'help';
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

/** Claude Code's `mcp add` flags (`-s`, `-t`, `-e`, `-H`), and ours (`--force`, `--no-verify`, `--cwd`). */
const OPTIONS = {
  scope: { type: 'string', short: 's' },
  transport: { type: 'string', short: 't' },
  env: { type: 'string', short: 'e', multiple: true },
  header: { type: 'string', short: 'H', multiple: true },
  force: { type: 'boolean' },
  'no-verify': { type: 'boolean' },
  cwd: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/**
 * The command line when it is `mcp add|add-json|remove|get …` (or `mcp --help`), parsed strictly
 * by these commands' own flags; undefined for any other command line. `known` is the main
 * parser's options, only so that a value-taking flag before `mcp` is skipped when finding it.
 */
export function parseMcpManageArgs(argv: string[], known: NonNullable<ParseArgsConfig['options']>): CliArgs | undefined {
  const terminator = argv.indexOf('--');
  const before = terminator < 0 ? argv : argv.slice(0, terminator);
  const { positionals, values: loose } = parseArgs({ args: before, allowPositionals: true, strict: false, options: { ...known, ...OPTIONS } });
  if (positionals[0] !== 'mcp') return undefined;
  const word = positionals[1];
  const manage = (MCP_MANAGE_WORDS as readonly string[]).includes(word ?? '');
  if (!manage && !(positionals.length === 1 && loose.help === true)) return undefined;
  let values;
  let words;
  try {
    ({ values, positionals: words } = parseArgs({ args: before, allowPositionals: true, strict: true, options: OPTIONS }));
  } catch (error) {
    throw new UsageError(`${optionError(error as Error, before, word)}\nRun "vibe-agent mcp --help" for the options.`);
  }
  const base: CliArgs = { command: 'mcp', yes: false, json: false, addDirs: [], allowSecrets: false, ...(values.cwd !== undefined ? { cwd: values.cwd } : {}) };
  const mcpManage: McpManageArgs = {
    action: values.help || !manage ? 'help' : (word as McpManageAction),
    words: words.slice(2),
    ...(terminator >= 0 ? { command: argv.slice(terminator + 1) } : {}),
    ...(values.scope !== undefined ? { scope: values.scope } : {}),
    ...(values.transport !== undefined ? { transport: values.transport } : {}),
    env: values.env ?? [],
    headers: values.header ?? [],
    force: values.force === true,
    verify: values['no-verify'] !== true,
  };
  return { ...base, mcpArgs: words.slice(1), mcpManage };
}

/** "unknown option --port for mcp add (a server's own flags go after --: …)", or parseArgs' own words. */
function optionError(error: Error, words: string[], action: string | undefined): string {
  if ((error as { code?: string }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return error.message;
  const { tokens } = parseArgs({ args: words, allowPositionals: true, strict: false, tokens: true, options: OPTIONS });
  const unknown = tokens.find((token) => token.kind === 'option' && !(token.name in OPTIONS));
  const typed = unknown?.kind === 'option' ? unknown.rawName : '?';
  const hint = action === 'add' ? '; a server\'s own flags go after "--": vibe-agent mcp add NAME -- COMMAND ARGS...' : '';
  return `${unknownOptionMessage(typed, Object.keys(OPTIONS))} for "mcp ${action ?? ''}"${hint}`;
}
