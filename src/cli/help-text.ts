import { SHARED_OPTIONS } from './args/command-options.js';
import type { Command } from './args/command-spec.js';
import { COMMANDS, findCommand } from './command-registry.js';
import { RUN_OPTIONS } from './commands/run/run-options.js';
import { SETTING_OPTIONS } from './parse-command-line.js';
import { defaultWords, envWords, environmentOnlyKeys, flagWords } from './settings/setting-words.js';
import { SETTING_KEYS, settingRow } from './settings/settings.js';

const WIDTH = 110;
const FLAG_COLUMN = 25;
const COMMAND_COLUMN = 12;

const TITLE = 'vibe-agent — a coding agent for the terminal';
const USAGE = [
  'Usage:',
  option('vibe-agent "prompt"', 'run one task and print the answer (or -p "prompt"; "/name args": a custom command)'),
  option('vibe-agent', 'an interactive session in a terminal; with stdin piped, reads the prompt from it'),
];
const RULE = wrap(
  'A first word naming a command runs it; quote a task that starts with one. A typo is an error (exit 2).',
  '',
);
/** The flags people reach for; the rest are in `--help all` and docs/settings.md. */
const COMMON_FLAGS: [flag: string, help: string][] = [
  ['model', 'the model (default: the provider preset\'s)'],
  ['provider', 'anthropic, openai, google, deepseek, openrouter, ollama, … (--help all lists them)'],
  ['permission-mode', 'ask, auto-edit, auto, plan or yolo: what runs without asking (--yes, -y: yolo)'],
  ['continue', 'continue the latest session here (--resume [ID]: a chosen one, or pick)'],
  ['max-cost', 'stop once the run has cost this many US dollars'],
  ['bg', 'the task in the background, -w [NAME] in its own git worktree (docs/background.md)'],
  ['cwd', 'the workspace directory (default: here); --json: one JSON event per line on stdout'],
];

/** `vibe-agent --help`: one screen (test/cli-commands.test.ts holds it to 40 lines). */
export function helpText(): string {
  const everyOption = [...SETTING_OPTIONS, ...SHARED_OPTIONS, ...RUN_OPTIONS];
  const common = COMMON_FLAGS.map(([flag, help]) => ({ ...everyOption.find((one) => one.flag === flag)!, help }));
  return [
    TITLE,
    ...USAGE,
    '',
    'Commands (vibe-agent COMMAND --help shows its words and flags; in detail: docs/configuration.md):',
    ...COMMANDS.map((command) => option(command.name, command.summary, COMMAND_COLUMN)),
    '',
    RULE,
    '',
    'Options (every setting, its environment variable and config key: vibe-agent --help all, docs/settings.md):',
    ...common.map((one) => option(flagWords(one), one.help)),
    option('--help, -h', 'this screen; COMMAND --help: a command\'s; --help all: every option (--version, -v)'),
  ].join('\n');
}

/** `vibe-agent COMMAND --help`: its usage, its words and its own flags. */
export function commandHelp(command: Command): string {
  const words = command.words ?? [];
  return [
    `vibe-agent ${command.name} — ${command.summary}`,
    '',
    'Usage:',
    ...command.usage.map((line) => `  vibe-agent ${line}`),
    ...(command.details ? ['', ...command.details.map((line) => wrap(line, ''))] : []),
    ...(words.length ? ['', 'Words:', ...words.map((word) => option(word.usage ?? word.word, word.help))] : []),
    ...(command.flags.length ? ['', 'Flags:', ...command.flags.map((flag) => option(flagWords(flag), flag.help))] : []),
    '',
    'Also: --cwd DIR, --json, --yes and every setting (--provider, --model, …: vibe-agent --help all).',
  ].join('\n');
}

/** `vibe-agent --help all`: every option, with its default and variable. */
export function fullHelp(): string {
  const settingLines = SETTING_KEYS.flatMap((key) => {
    const row = settingRow(key);
    if (row.flag === undefined) return [];
    const notes = [defaultWords(key) && ` Default: ${defaultWords(key)}.`, envWords(key) && ` Or ${envWords(key)}.`].filter(Boolean).join('');
    return [option(flagWords({ flag: row.flag, ...(row.short ? { short: row.short } : {}), ...(row.value ? { value: row.value } : {}) }), `${row.help}.${notes}`)];
  });
  const envOnly = environmentOnlyKeys().map((key) => `${settingRow(key).env} (${settingRow(key).help})`);
  return [
    TITLE,
    ...USAGE,
    '',
    'Settings (every command takes them):',
    ...settingLines,
    '',
    'Every command:',
    ...SHARED_OPTIONS.map((one) => option(flagWords(one), `${one.help}.`)),
    '',
    'A task (vibe-agent "prompt" or an interactive session):',
    ...RUN_OPTIONS.map((one) => option(flagWords(one), `${one.help}.`)),
    '',
    `Each command's own words and flags: vibe-agent COMMAND --help (${COMMANDS.map((command) => command.name).join(', ')}).`,
    wrap(`Environment: ${envOnly.join('; ')}. Config files: the user's ~/.config/vibe-agent/config.json (or under $XDG_CONFIG_HOME), then .vibe-agent/config.json in the workspace; every setting, its variable and config key: docs/settings.md.`, '  '),
    'Precedence: flags, then environment, then the project config, then the user config, then defaults.',
    wrap('Exit codes: 0 answered, 1 failed (a provider error, or nothing to do: memory forget found no match), 2 usage or configuration error, 3 stopped by a brake, 130 aborted.', '  '),
  ].join('\n');
}

/** The help a parsed `--help` asked for (the parser has checked the topic). */
export function helpFor(topic: string | undefined): string {
  if (topic === 'all') return fullHelp();
  const command = topic === undefined ? undefined : findCommand(topic);
  return command ? commandHelp(command) : helpText();
}

function option(head: string, description: string, column = FLAG_COLUMN): string {
  const lead = `  ${head}`;
  const first = lead.length < column - 1 ? lead.padEnd(column) : `${lead} `;
  return wrap(`${first}${description}`, ' '.repeat(column));
}

/** Breaks at spaces so no line passes WIDTH; later lines start with `indent`. */
function wrap(line: string, indent: string): string {
  const out: string[] = [];
  let rest = line;
  while (rest.length > WIDTH) {
    const cut = rest.lastIndexOf(' ', WIDTH);
    if (cut <= indent.length) break;
    out.push(rest.slice(0, cut));
    rest = indent + rest.slice(cut + 1);
  }
  out.push(rest);
  return out.join('\n');
}
