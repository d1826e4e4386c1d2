import { parseArgs, type ParseArgsConfig } from 'node:util';
import { COMMAND_OPTIONS } from './command-options.js';
import { normalizeResumeFlag } from './session-args.js';
import { SETTING_KEYS, settingRow, type Protocol, type Settings } from './settings.js';
import { unknownOptionMessage } from './unknown-option.js';
import { normalizeRewindTo, parseRewindArgs, rewindFlagsGiven, type RewindArgs } from './rewind-args.js';
import { UsageError } from './usage-error.js';
import { isTraceCommand, parseTraceArgs, traceFlagsGiven, type TraceArgs } from './trace-args.js';
import { parseMcpManageArgs, type McpManageArgs } from './mcp-manage-args.js';

export { PROTOCOLS, type Protocol } from './settings.js';
export { UsageError } from './usage-error.js';

/** What the command line said; settings given by flag are parsed, everything else is applied by resolveSettings. */
export interface CliArgs {
  command: 'run' | 'demo' | 'help' | 'version' | 'sessions' | 'memory' | 'skills' | 'index' | 'doctor' | 'eval' | 'mcp' | 'rewind' | 'trace' | 'acp' | 'replay' | 'lsp';
  prompt?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  maxTurns?: number;
  tokenBudget?: number;
  agentDepth?: number;
  /** US dollars a run may spend before it stops (exit 3). */
  maxCost?: number;
  /** Extended thinking budget in tokens (anthropic, google). */
  thinking?: number;
  temperature?: number;
  tools?: string[];
  contextWindow?: number;
  yes: boolean;
  json: boolean;
  cwd?: string;
  /** --permission-mode, or yolo for --yes. */
  permissionMode?: Settings['permissionMode'];
  /** --add-dir directories (absolute). */
  addDirs: string[];
  allowSecrets: boolean;
  protocol?: Protocol;
  /** `demo --compare-protocols`: run the demo both ways and print a table. */
  compareProtocols?: boolean;
  /** --continue: resume the latest session of this workspace. */
  continue?: boolean;
  /** --resume [id]: an id or id prefix; "" when given without one (pick from the list). */
  resume?: string;
  /** --no-session: do not record this run. */
  noSession?: boolean;
  /** `memory` subcommand words (e.g. ["edit"], ["forget", "text"]) and its --user flag. */
  memoryArgs?: string[];
  user?: boolean;
  /** `eval` subcommand words (e.g. ["merge", "a.jsonl", "b.jsonl"]) and its flags, unparsed. */
  evalArgs?: string[];
  evalFlags?: { runs?: string; concurrency?: string; shard?: string; suite?: string; output?: string; 'min-pass'?: string };
  /** `mcp` subcommand words (e.g. ["list"]). */
  mcpArgs?: string[];
  /** `mcp serve --http [HOST:]PORT`: streamable HTTP instead of stdio. */
  mcpHttp?: string;
  /** `mcp add|add-json|remove|get`: parsed by their own flags (see mcp-manage-args.ts). */
  mcpManage?: McpManageArgs;
  /** `rewind` options (see rewind-args.ts). */
  rewind?: RewindArgs;
  /** `trace` options (see trace-args.ts). */
  trace?: TraceArgs;
  /** `replay SESSION [--against]`: the session (id, id prefix or .jsonl path) and whether to run a live model. */
  replay?: { session: string; against: boolean };
}

type OptionSpec = NonNullable<ParseArgsConfig['options']>[string];

/** What node:util parseArgs accepts: every flag of the settings table and the command options. */
export const PARSE_OPTIONS: Record<string, OptionSpec> = Object.fromEntries([
  ...SETTING_KEYS.flatMap((key) => {
    const row = settingRow(key);
    if (row.flag === undefined) return [];
    return [[row.flag, { type: row.value ? 'string' : 'boolean', ...(row.short ? { short: row.short } : {}), ...(row.repeatable ? { multiple: true } : {}) }]];
  }),
  ...COMMAND_OPTIONS.map((option) => [option.flag, { type: option.value ? 'string' : 'boolean', ...(option.short ? { short: option.short } : {}) }]),
]);

const SEE_HELP = 'Run "vibe-agent --help" for the options.';

export function parseCliArgs(argv: string[]): CliArgs {
  const mcpManage = parseMcpManageArgs(argv, PARSE_OPTIONS);
  if (mcpManage) return mcpManage;
  const words = normalizeRewindTo(normalizeResumeFlag(argv));
  let parsed;
  try {
    parsed = parseArgs({ args: words, allowPositionals: true, strict: true, options: PARSE_OPTIONS });
  } catch (error) {
    const typed = (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? firstUnknownOption(words) : undefined;
    throw new UsageError(`${typed ? unknownOptionMessage(typed, Object.keys(PARSE_OPTIONS)) : (error as Error).message}\n${SEE_HELP}`);
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  const positionals = parsed.positionals;
  const args: CliArgs = { command: 'run', yes: values.yes === true, json: values.json === true, addDirs: [], allowSecrets: false };
  for (const key of SETTING_KEYS) Object.assign(args, flagSetting(key, values));
  applyRunFlags(args);
  if (values.help) return { ...args, command: 'help' };
  if (values.version) return { ...args, command: 'version' };
  const cwd = values.cwd as string | undefined;
  if (positionals[0] === 'demo') {
    args.command = 'demo';
    positionals.shift();
  }
  if (positionals[0] === 'sessions' || positionals[0] === 'memory') {
    args.command = positionals[0];
    if (args.command === 'memory') args.memoryArgs = positionals.slice(1);
    else if (positionals.length > 1) throw new UsageError('"vibe-agent sessions" takes no arguments (to ask about sessions, quote the prompt or use -p).');
    if (values.user) args.user = true;
    if (cwd) args.cwd = cwd;
    return args;
  }
  if (isTraceCommand(positionals, values)) return { ...args, ...parseTraceArgs(positionals.slice(1), values), ...(cwd ? { cwd } : {}) };
  if (positionals[0] === 'rewind') return { ...args, ...parseRewindArgs(positionals.slice(1), values), ...(cwd ? { cwd } : {}) };
  // Only its own words make it the subcommand: "vibe-agent mcp servers explained" stays a prompt.
  if (positionals[0] === 'mcp' && (positionals.length === 1 || (positionals.length === 2 && (positionals[1] === 'list' || positionals[1] === 'serve')))) {
    args.command = 'mcp';
    args.mcpArgs = positionals.slice(1);
    if (values.http !== undefined) {
      if (positionals[1] !== 'serve') throw new UsageError('--http only applies to "vibe-agent mcp serve".');
      args.mcpHttp = values.http as string;
    }
    if (cwd) args.cwd = cwd;
    return args;
  }
  if (positionals[0] === 'lsp' && positionals.length === 1) {
    args.command = 'lsp';
    if (cwd) args.cwd = cwd;
    return args;
  }
  if (positionals[0] === 'skills' || positionals[0] === 'index') {
    if (positionals.length > 1) throw new UsageError(`"vibe-agent ${positionals[0]}" takes no arguments (to ask about ${positionals[0]}, quote the prompt or use -p).`);
    args.command = positionals[0];
    if (cwd) args.cwd = cwd;
    return args;
  }
  if (positionals[0] === 'doctor' || positionals[0] === 'eval') return commandWithWords(args, positionals, values);
  // The ACP server for editors; the run settings (provider, model, permission mode) apply to its sessions.
  if (positionals[0] === 'acp' && positionals.length === 1) {
    args.command = 'acp';
    if (cwd) args.cwd = cwd;
    return args;
  }
  if (positionals[0] === 'replay') return replayArgs(args, positionals, values);
  if (values.against) throw new UsageError('--against only applies to "vibe-agent replay SESSION".');
  if (values.user) throw new UsageError('--user only applies to "vibe-agent memory".');
  if (values.http !== undefined) throw new UsageError('--http only applies to "vibe-agent mcp serve".');
  const misplaced = rewindFlagsGiven(values);
  if (misplaced.length) throw new UsageError(`--${misplaced[0]} only applies to "vibe-agent rewind".`);
  const traceOnly = traceFlagsGiven(values);
  if (traceOnly.length) throw new UsageError(`--${traceOnly[0]} only applies to "vibe-agent trace".`);
  if (values.continue) args.continue = true;
  if (values.resume !== undefined) args.resume = values.resume as string;
  if (values['no-session']) args.noSession = true;
  if (cwd) args.cwd = cwd;
  const flagPrompt = values.prompt as string | undefined;
  if (flagPrompt !== undefined && positionals.length) throw new UsageError('Give the prompt either with -p or as an argument, not both.');
  const prompt = flagPrompt ?? (positionals.length ? positionals.join(' ') : undefined);
  if (prompt !== undefined && args.command === 'demo') throw new UsageError(`"vibe-agent demo" runs its own four tasks and takes no prompt; to run "${prompt}", leave out "demo".`);
  if (prompt !== undefined) args.prompt = prompt;
  if (values['compare-protocols']) {
    if (args.command !== 'demo') throw new UsageError('--compare-protocols goes with the demo: vibe-agent demo --compare-protocols');
    if (args.protocol) throw new UsageError('--compare-protocols runs both protocols; leave out --protocol.');
    args.compareProtocols = true;
  }
  return args;
}

/**
 * The run flags every sub-command that runs tools shares (run, demo, acp, mcp serve, replay),
 * mapped once before any sub-command branch can return: `--yes` is `--permission-mode yolo`.
 */
function applyRunFlags(args: CliArgs): void {
  if (!args.yes) return;
  if (args.permissionMode && args.permissionMode !== 'yolo') throw new UsageError(`--yes means --permission-mode yolo; it cannot be combined with --permission-mode ${args.permissionMode}.`);
  args.permissionMode = 'yolo';
}

const EVAL_FLAGS = ['runs', 'concurrency', 'shard', 'suite', 'output', 'min-pass'] as const;

/** `doctor` (no words) and `eval [merge FILES…]`: their own flags, checked where they are used. */
function commandWithWords(args: CliArgs, positionals: string[], values: Record<string, string | boolean | string[] | undefined>): CliArgs {
  const command = positionals[0] as 'doctor' | 'eval';
  const evalFlags = Object.fromEntries(EVAL_FLAGS.flatMap((flag) => (typeof values[flag] === 'string' ? [[flag, values[flag]]] : [])));
  if (command === 'doctor' && (positionals.length > 1 || Object.keys(evalFlags).length)) throw new UsageError('"vibe-agent doctor" takes no arguments; its flags are --provider, --base-url, --model, --json and --yes.');
  if (values.cwd) args.cwd = values.cwd as string;
  return { ...args, command, ...(command === 'eval' ? { evalArgs: positionals.slice(1), evalFlags } : {}) };
}

/** `replay SESSION [--against]`: exactly one session. */
function replayArgs(args: CliArgs, positionals: string[], values: Record<string, string | boolean | string[] | undefined>): CliArgs {
  if (positionals.length !== 2) throw new UsageError('Usage: vibe-agent replay SESSION [--against] (SESSION: an id or id prefix from "vibe-agent sessions", or a .jsonl file).');
  if (values.cwd) args.cwd = values.cwd as string;
  return { ...args, command: 'replay', replay: { session: positionals[1]!, against: values.against === true } };
}

/** A setting's flag, parsed by its row (`{}` when the flag is absent). */
function flagSetting(key: keyof Settings, values: Record<string, string | boolean | string[] | undefined>): Partial<CliArgs> {
  const row = settingRow(key);
  const raw = row.flag === undefined ? undefined : values[row.flag];
  if (raw === undefined || raw === false || row.flag === undefined) return {};
  const name = `--${row.flag}`;
  const parse = row.parse ?? ((text: string) => text);
  const value = raw === true ? true : Array.isArray(raw) ? raw.map((one) => parse(one, name)) : parse(raw, name);
  return { [key]: value } as Partial<CliArgs>;
}

/** The first word parseArgs does not know as an option, as typed (`--modle`, `-x`). */
function firstUnknownOption(words: string[]): string | undefined {
  const { tokens } = parseArgs({ args: words, allowPositionals: true, strict: false, tokens: true, options: PARSE_OPTIONS });
  const unknown = tokens.find((token) => token.kind === 'option' && !(token.name in PARSE_OPTIONS));
  return unknown?.kind === 'option' ? unknown.rawName : undefined;
}
