import type { CliArgs } from './cli-args.js';
import type { CommandOption } from './command-options.js';

/** The values node:util parseArgs gives for the flags of one command line. */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/** A word that picks what a command does (`mcp list`, `memory forget`). */
export interface CommandWord {
  word: string;
  /** `forget TEXT`: the word as its usage line shows it. */
  usage?: string;
  help: string;
  /** Words it takes after itself (default 0; Infinity for `forget TEXT…`). */
  maxWords?: number;
  /** It takes what follows a `--` (`mcp add NAME -- COMMAND ARGS…`); this names it in the usage. */
  passthrough?: string;
}

/** What follows the command word, once the flags are taken out. */
export interface CommandInput {
  /** The words before a `--`, in order (the command word itself excluded). */
  words: string[];
  /** The words after a `--` (`mcp add NAME -- node server.mjs`), untouched. */
  passthrough: string[];
  /** Every flag given: this command's, the shared ones and the settings' (raw, as parsed). */
  flags: FlagValues;
}

/**
 * One sub-command, as the strict parser, the help and the dispatcher see it. A spec lives in its
 * command's folder (commands/NAME/spec.ts) and stays light: its run is a lazy import().
 */
export interface CommandSpec<Extra extends object = object> {
  name: CliArgs['command'];
  /** One line for the command list of `vibe-agent --help`. */
  summary: string;
  /** Usage lines after "vibe-agent " (`trace [SESSION] [--html FILE]`). */
  usage: string[];
  /** More to say in `COMMAND --help`, a line each. */
  details?: string[];
  /** When given, a first word must be one of these (a word the command does not know is an error). */
  words?: CommandWord[];
  /** Words the command takes at most, when it has no `words` (default 0). */
  maxWords?: number;
  /** Said after an unknown flag given to this command (how to pass a server's own flags). */
  unknownFlagHint?: string;
  /** Its own flags: anywhere else they are an error naming this command. */
  flags: CommandOption[];
  /** What the words and flags mean for this command (throws UsageError); merged into CliArgs. */
  parse?: (input: CommandInput) => Extra;
  run: (args: CliArgs & Extra, signal: AbortSignal) => Promise<number>;
}

/** A spec with its parse result's type erased, for the registry. */
export interface Command extends Omit<CommandSpec, 'parse' | 'run'> {
  parse: (input: CommandInput) => object;
  run: (args: CliArgs, signal: AbortSignal) => Promise<number>;
}

/** The parser passes run exactly what parse returned, merged into CliArgs: the one place the types meet. */
export function defineCommand<Extra extends object>(spec: CommandSpec<Extra>): Command {
  return { ...spec, parse: spec.parse ?? (() => ({})), run: spec.run as Command['run'] };
}
