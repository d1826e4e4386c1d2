import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CliArgs } from './args/cli-args.js';
import { SHARED_OPTIONS, type CommandOption } from './args/command-options.js';
import type { Command, CommandWord, FlagValues } from './args/command-spec.js';
import { normalizeResumeFlag } from './args/session-args.js';
import { normalizeWorktreeFlag, WORKTREE_NAME } from './args/worktree-flag.js';
import { closestCommand, unknownOptionMessage } from './args/unknown-option.js';
import { COMMANDS, findCommand } from './command-registry.js';
import { RUN_OPTIONS } from './commands/run/run-options.js';
import { SETTING_KEYS, settingRow, type Settings } from './settings/settings.js';
import { UsageError } from './settings/usage-error.js';

type OptionSpec = NonNullable<ParseArgsConfig['options']>[string];

/** The settings table's flags, which every command takes (a command's run resolves its settings). */
export const SETTING_OPTIONS: readonly CommandOption[] = SETTING_KEYS.flatMap((key) => {
  const row = settingRow(key);
  if (row.flag === undefined) return [];
  return [{ flag: row.flag, help: row.help, ...(row.short ? { short: row.short } : {}), ...(row.value ? { value: row.value } : {}), ...(row.repeatable ? { multiple: true } : {}) }];
});

/** Every flag of every command, by name: a flag has one meaning wherever it is taken (test/cli-commands.test.ts). */
export const ALL_OPTIONS: Record<string, OptionSpec> = parseOptions([...SETTING_OPTIONS, ...SHARED_OPTIONS, ...RUN_OPTIONS, ...COMMANDS.flatMap((command) => command.flags)]);

/**
 * The command line, strictly: a first word that names a command is that command, with its own
 * words and flags; anything else is a task (`vibe-agent "prompt"`), except a lone word that looks
 * like a mistyped command. Nothing the parser cannot place becomes a prompt.
 */
export function parseCliArgs(argv: string[]): CliArgs {
  const words = normalizeWorktreeFlag(normalizeResumeFlag(argv));
  const at = commandWordAt(words);
  const command = at === undefined ? undefined : findCommand(words[at]!);
  const rest = at === undefined ? words : [...words.slice(0, at), ...words.slice(at + 1)];
  const { values, positionals, passthrough } = strictParse(rest, command);
  const args: CliArgs = { command: 'run', yes: values.yes === true, json: values.json === true, addDirs: [], allowSecrets: false };
  for (const key of SETTING_KEYS) Object.assign(args, flagSetting(key, values));
  applyYes(args);
  if (typeof values.cwd === 'string') args.cwd = values.cwd;
  if (values.help) return { ...args, command: 'help', ...helpTopic(command, positionals) };
  if (values.version) return { ...args, command: 'version' };
  if (command) return { ...args, command: command.name, ...command.parse({ words: checkWords(command, positionals, passthrough), passthrough, flags: values }) };
  return runArgs(args, positionals, passthrough, values);
}

/** Where the command word is: the first word that is not a flag or a flag's value, when it names a command. */
function commandWordAt(words: string[]): number | undefined {
  const { tokens } = parseArgs({ args: words, allowPositionals: true, strict: false, tokens: true, options: ALL_OPTIONS });
  const first = tokens.find((token) => token.kind !== 'option');
  return first?.kind === 'positional' && findCommand(first.value) ? first.index : undefined;
}

function strictParse(words: string[], command: Command | undefined): { values: FlagValues; positionals: string[]; passthrough: string[] } {
  const options = parseOptions([...SETTING_OPTIONS, ...SHARED_OPTIONS, ...(command ? command.flags : RUN_OPTIONS)]);
  try {
    const { values, tokens } = parseArgs({ args: words, allowPositionals: true, strict: true, tokens: true, options });
    const end = tokens.findIndex((token) => token.kind === 'option-terminator');
    const positional = (from: number, to: number) => tokens.slice(from, to).flatMap((token) => (token.kind === 'positional' ? [token.value] : []));
    return { values: values as FlagValues, positionals: positional(0, end < 0 ? tokens.length : end), passthrough: end < 0 ? [] : positional(end + 1, tokens.length) };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const typed = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? firstUnknownOption(words, options) : undefined;
    throw new UsageError(typed ? misplacedOptionMessage(typed, Object.keys(options), command) : `${(error as Error).message}\n${seeHelp(command)}`);
  }
}

/** `--html` given to a command that has none: the command it belongs to, or the flag most likely meant. */
function misplacedOptionMessage(typed: string, known: string[], command: Command | undefined): string {
  const name = typed.replace(/^-+/, '').replace(/=.*$/, '');
  const long = typed.startsWith('--') ? name : Object.entries(ALL_OPTIONS).find(([, option]) => option.short === name)?.[0];
  const owners = long === undefined ? [] : ownersOf(long);
  if (owners.length) return `${typed} only applies to ${owners.map((owner) => owner.said).join(' and ')}${command?.unknownFlagHint ? `; ${command.unknownFlagHint}` : ''}; see ${owners[0]!.help}.`;
  return `${unknownOptionMessage(typed, known)}${command?.unknownFlagHint ? `; ${command.unknownFlagHint}` : ''}\n${seeHelp(command)}`;
}

/** The commands that take a flag (a task run too, for -p, --continue, …). */
function ownersOf(flag: string): { said: string; help: string }[] {
  const owners = COMMANDS.filter((command) => command.flags.some((option) => option.flag === flag)).map((command) => ({ said: `"vibe-agent ${command.name}"`, help: `vibe-agent ${command.name} --help` }));
  return RUN_OPTIONS.some((option) => option.flag === flag) ? [{ said: 'a task (vibe-agent "prompt")', help: 'vibe-agent --help' }, ...owners] : owners;
}

const seeHelp = (command: Command | undefined): string => (command ? `Run "vibe-agent ${command.name} --help" for its options.` : 'Run "vibe-agent --help" for the options.');

/** The words a command takes: one of its words first (when it has words), and no more than it takes. */
function checkWords(command: Command, words: string[], passthrough: string[]): string[] {
  const quoteHint = `To ask the model instead, quote the whole prompt: vibe-agent "${[command.name, ...words].join(' ')}"`;
  let said: string = command.name;
  let max = command.maxWords ?? 0;
  let taken = words;
  let word: CommandWord | undefined;
  if (command.words && words.length) {
    const known = command.words.map((one) => one.word);
    word = command.words.find((one) => one.word === words[0]);
    if (!word) {
      const close = closestCommand(words[0]!, known);
      throw new UsageError(`"vibe-agent ${command.name}" has no word "${words[0]}"${close ? ` (did you mean "${command.name} ${close}"?)` : ''}; it takes ${known.join(', ')} (see vibe-agent ${command.name} --help). ${quoteHint}`);
    }
    said = `${command.name} ${word.word}`;
    max = word.maxWords ?? 0;
    taken = words.slice(1);
  }
  if (taken.length > max) throw new UsageError(`"vibe-agent ${said}" takes ${max === 0 ? 'no words' : `at most ${max} word${max > 1 ? 's' : ''}`} (got "${taken.join(' ')}"). ${quoteHint}`);
  if (passthrough.length && !word?.passthrough) throw new UsageError(`"vibe-agent ${said}" takes nothing after "--" (got "${passthrough.join(' ')}").`);
  return words;
}

/** `vibe-agent "prompt"`, `-p`, piped or interactive: the task run's own flags. */
function runArgs(args: CliArgs, positionals: string[], passthrough: string[], values: FlagValues): CliArgs {
  if (values.continue) args.continue = true;
  if (values.resume !== undefined) args.resume = values.resume as string;
  if (values['no-session']) args.noSession = true;
  if (values.worktree !== undefined && !values.bg) throw new UsageError('--worktree goes with --bg (a background session in its own worktree).');
  if (typeof values.worktree === 'string' && values.worktree !== '' && !WORKTREE_NAME.test(values.worktree)) throw new UsageError(`a worktree name is letters, digits, ".", "_" and "-" (up to 64), not "${values.worktree}"`);
  if (values.base !== undefined && values.worktree === undefined) throw new UsageError('--base goes with --bg -w (the commit a worktree starts from).');
  if (values.bg) args.background = { ...(typeof values.worktree === 'string' ? { worktree: values.worktree } : {}), ...(typeof values.base === 'string' ? { base: values.base } : {}) };
  const flagPrompt = values.prompt as string | undefined;
  const words = [...positionals, ...passthrough];
  if (flagPrompt !== undefined && words.length) throw new UsageError('Give the prompt either with -p or as an argument, not both.');
  if (flagPrompt === undefined && positionals.length === 1 && passthrough.length === 0) {
    const lone = positionals[0]!;
    if (lone === 'help') return { ...args, command: 'help' };
    const meant = closestCommand(lone, COMMANDS.map((command) => command.name));
    if (meant) throw new UsageError(`"${lone}" is not a command (did you mean "vibe-agent ${meant}"?). To send "${lone}" to the model as the task, use -p "${lone}".`);
  }
  const prompt = flagPrompt ?? (words.length ? words.join(' ') : undefined);
  if (prompt !== undefined) args.prompt = prompt;
  return args;
}

/** `COMMAND --help`, `--help COMMAND` (the same: the command word comes first), `--help all` or the one screen. */
function helpTopic(command: Command | undefined, positionals: string[]): { helpTopic?: string } {
  if (command) return { helpTopic: command.name };
  if (positionals.length === 0) return {};
  if (positionals.length === 1 && positionals[0] === 'all') return { helpTopic: 'all' };
  const meant = closestCommand(positionals[0]!, [...COMMANDS.map((known) => known.name), 'all']);
  throw new UsageError(`--help takes a command or "all", not "${positionals.join(' ')}"${meant ? ` (did you mean "${meant}"?)` : ''}. Run "vibe-agent --help" for the commands.`);
}

/** `--yes` is `--permission-mode yolo`, for every command that runs tools. */
function applyYes(args: CliArgs): void {
  if (!args.yes) return;
  if (args.permissionMode && args.permissionMode !== 'yolo') throw new UsageError(`--yes means --permission-mode yolo; it cannot be combined with --permission-mode ${args.permissionMode}.`);
  args.permissionMode = 'yolo';
}

/** A setting's flag, parsed by its row (`{}` when the flag is absent). */
function flagSetting(key: keyof Settings, values: FlagValues): Partial<CliArgs> {
  const row = settingRow(key);
  const raw = row.flag === undefined ? undefined : values[row.flag];
  if (raw === undefined || raw === false || row.flag === undefined) return {};
  const name = `--${row.flag}`;
  const parse = row.parse ?? ((text: string) => text);
  const value = raw === true ? true : Array.isArray(raw) ? raw.map((one) => parse(one, name)) : parse(raw, name);
  return { [key]: value } as Partial<CliArgs>;
}

function parseOptions(options: readonly CommandOption[]): Record<string, OptionSpec> {
  return Object.fromEntries(options.map((option) => [option.flag, { type: option.value ? 'string' : 'boolean', ...(option.short ? { short: option.short } : {}), ...(option.multiple ? { multiple: true } : {}) }]));
}

/** The first word parseArgs does not know as an option, as typed (`--modle`, `-x`). */
function firstUnknownOption(words: string[], options: Record<string, OptionSpec>): string | undefined {
  const { tokens } = parseArgs({ args: words, allowPositionals: true, strict: false, tokens: true, options });
  const unknown = tokens.find((token) => token.kind === 'option' && !(token.name in options));
  return unknown?.kind === 'option' ? unknown.rawName : undefined;
}
