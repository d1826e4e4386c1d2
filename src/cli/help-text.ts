import { COMMAND_OPTIONS } from './args/command-options.js';
import { defaultWords, envWords, environmentOnlyKeys, flagWords } from './settings/setting-words.js';
import { SETTING_KEYS, settingRow } from './settings/settings.js';

const USAGE = `vibe-agent — a coding agent for the terminal

Usage:
  vibe-agent "prompt"            run one task and print the answer
  vibe-agent -p "prompt"         the same (--prompt "prompt")
  vibe-agent                     an interactive session (in a terminal); with stdin piped, reads the prompt from it
  vibe-agent demo                the course's four tasks (offline on a scripted model if none is configured)
  vibe-agent demo --compare-protocols   the four tasks with native tool calls and with prompt-JSON, side by side
  vibe-agent sessions            this workspace's saved sessions, newest first
  vibe-agent trace [SESSION]     a session as a page on 127.0.0.1 (turns, requests, tokens, cost); --html FILE writes it
  vibe-agent memory              show the memory files; memory edit [--user]; memory forget TEXT [--user]
  vibe-agent skills              the skills and custom commands found, and where each came from
  vibe-agent "/name args"        run a custom command (.vibe-agent/commands, .claude/commands, .gemini/commands)
  vibe-agent index [--docs DIR]  build the search_docs index of the knowledge folders
  vibe-agent doctor              probe the configured endpoint and this machine; a table and a recommendation
  vibe-agent eval                run a suite of tasks N times each, checked by commands; eval merge FILES… combines shards
  vibe-agent mcp list            the MCP servers: state, tools, start time, where each is configured
  vibe-agent lsp                 the language servers code_nav would use here, and why others are not
  vibe-agent mcp serve           our tools as an MCP server over stdio, or --http [HOST:]PORT (read-only ones unless --permission-mode/--yes)
  vibe-agent acp                 serve the Agent Client Protocol on stdio, for editors (Zed, JetBrains): docs/acp.md
  vibe-agent replay SESSION      send a saved session's requests again offline, compare them with the recording [--against]`;

const WIDTH = 110;
const FLAG_COLUMN = 23;

/** `--help`, with the options drawn from the settings table and the command options. */
export function helpText(): string {
  const settingLines = SETTING_KEYS.flatMap((key) => {
    const row = settingRow(key);
    if (row.flag === undefined) return [];
    const notes = [defaultWords(key) && ` Default: ${defaultWords(key)}.`, envWords(key) && ` Or ${envWords(key)}.`].filter(Boolean).join('');
    return [option(flagWords({ flag: row.flag, ...(row.short ? { short: row.short } : {}), ...(row.value ? { value: row.value } : {}) }), `${row.help}.${notes}`)];
  });
  const commandLines = COMMAND_OPTIONS.map((command) => option(flagWords(command), `${command.help}.`));
  const envOnly = environmentOnlyKeys().map((key) => `${settingRow(key).env} (${settingRow(key).help})`);
  return [
    USAGE,
    '',
    'Options:',
    ...settingLines,
    ...commandLines,
    '',
    wrap(`Environment: ${envOnly.join('; ')}. Config files: the user's ~/.config/vibe-agent/config.json (or under $XDG_CONFIG_HOME), then .vibe-agent/config.json in the workspace; every setting, its variable and config key: docs/settings.md.`, '  '),
    'Precedence: flags, then environment, then the project config, then the user config, then defaults.',
    wrap('Exit codes: 0 answered, 1 failed (a provider error, or nothing to do: memory forget found no match), 2 usage or configuration error, 3 stopped by a brake, 130 aborted.', '  '),
  ].join('\n');
}

function option(head: string, description: string): string {
  const lead = `  ${head}`;
  const first = lead.length < FLAG_COLUMN - 1 ? lead.padEnd(FLAG_COLUMN) : `${lead} `;
  return wrap(`${first}${description}`, ' '.repeat(FLAG_COLUMN));
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
