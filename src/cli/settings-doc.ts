import { PRESETS } from '../providers/presets.js';
import { SHARED_OPTIONS } from './args/command-options.js';
import { COMMANDS } from './command-registry.js';
import { RUN_OPTIONS } from './commands/run/run-options.js';
import { configTypeWords, defaultWords, envWords, flagWords } from './settings/setting-words.js';
import { SETTING_KEYS, settingRow, type ProjectRule } from './settings/settings.js';

const PROJECT_RULES: Record<ProjectRule, string> = {
  'user-only': 'ignored with a warning; only your user config or a flag sets it',
  'may-lower': 'may lower your user config’s value (or the default when you set none), not raise it',
  'may-narrow': 'may narrow your user config’s list, not add to it',
  'local-only': 'taken only when it points at this machine (localhost, 127.x, ::1, or a local provider such as ollama), since your API key goes with every request',
  'deny-only': 'may add deny rules; its allow rules are ignored with a warning',
  'after-approval': 'taken only once you approve each entry (asked once per workspace; see --trust-project-mcp)',
};

const cell = (text: string | undefined): string => (text ? text.replace(/\|/g, '\\|') : '—');
const code = (text: string | undefined): string | undefined => (text ? `\`${text}\`` : undefined);

/** docs/settings.md, written from the settings table by scripts/settings-doc.mjs (a test keeps them equal). */
export function settingsMarkdown(): string {
  const settings = SETTING_KEYS.map((key) => {
    const row = settingRow(key);
    const flag = row.flag ? code(flagWords({ flag: row.flag, ...(row.short ? { short: row.short } : {}), ...(row.value ? { value: row.value } : {}) })) : undefined;
    const env = row.env ? code(row.env) : envWords(key);
    const config = row.config ? `\`${key}\`: ${configTypeWords(row.config)}` : undefined;
    return `| ${[flag, env, config, defaultWords(key), row.project ? `${row.help}. In a project config: ${PROJECT_RULES[row.project]}.` : `${row.help}.`].map(cell).join(' | ')} |`;
  });
  const providers = Object.values(PRESETS).map((preset) =>
    `| ${[code(preset.name), code([preset.keyVariable, ...(preset.altKeyVariables ?? [])].filter(Boolean).join('`, else `')) ?? 'none (local)', code(preset.baseUrlVariable), preset.baseURL, preset.defaultModel && preset.defaultModelAtOwnEndpointOnly ? `${code(preset.defaultModel)} (at this base URL only)` : code(preset.defaultModel)].map(cell).join(' | ')} |`,
  );
  const commands = [
    ...SHARED_OPTIONS.map((option) => ({ where: 'every command', option })),
    ...RUN_OPTIONS.map((option) => ({ where: 'a task', option })),
    ...COMMANDS.flatMap((command) => command.flags.map((option) => ({ where: `\`${command.name}\``, option }))),
  ].map(({ where, option }) => `| ${cell(code(flagWords(option)))} | ${where} | ${cell(option.help)} |`);
  return [
    '# Settings',
    '',
    '<!-- Generated from src/cli/settings/settings.ts by `node scripts/settings-doc.mjs` (after a build); test/settings.test.ts fails when it is out of date. -->',
    '',
    'Each setting is taken from the first place that has it: a flag, then the environment variable, then the',
    "project's `.vibe-agent/config.json` in the workspace, then the user's `$XDG_CONFIG_HOME/vibe-agent/config.json`",
    '(default `~/.config/vibe-agent/config.json`), then the default. A repeatable flag adds to the config files’ list.',
    "A config file's `model` and `baseUrl` go with its `provider`: choosing another provider by flag or",
    "environment uses that provider's defaults. Config files are JSON; a syntax error, an unknown key, a wrong type",
    'or an unknown provider is an error naming the file, the line and column, and the nearest known key or',
    'provider ("did you mean"). An empty environment variable counts as unset.',
    '',
    '| flag | environment | config key: type | default | meaning |',
    '|---|---|---|---|---|',
    ...settings,
    '',
    '## Provider variables',
    '',
    "`--api-key` and `--base-url` beat the provider's own variables, which beat a config file's `baseUrl`.",
    '',
    '| provider | key variable | base-URL variable | base URL | default model |',
    '|---|---|---|---|---|',
    ...providers,
    '',
    '## Command options',
    '',
    'Flags that say what to do in this run; they have no variable and no config key. A command\'s own flags are',
    'an error anywhere else (`vibe-agent COMMAND --help` lists them).',
    '',
    '| flag | taken by | meaning |',
    '|---|---|---|',
    ...commands,
    '',
  ].join('\n');
}
