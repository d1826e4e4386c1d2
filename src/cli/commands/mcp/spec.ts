import { defineCommand } from '../../args/command-spec.js';
import { parseMcpArgs } from './mcp-args.js';
import { MCP_MANAGE_FLAGS } from './mcp-manage-args.js';

export const mcpSpec = defineCommand({
  name: 'mcp',
  summary: 'the MCP servers: list, get, add, add-json, remove; or our tools as an MCP server (mcp serve)',
  usage: [
    'mcp list',
    'mcp get NAME',
    'mcp add [-s SCOPE] [-e KEY=value]... NAME -- COMMAND [ARGS...]',
    'mcp add [-s SCOPE] [-t http|sse] [-H "Name: value"]... NAME URL',
    'mcp add-json [-s SCOPE] NAME JSON',
    'mcp remove NAME [-s SCOPE]',
    'mcp serve [--http [HOST:]PORT]',
  ],
  details: [
    'add starts the server and lists its tools before writing; a server that does not start is',
    "reported (exit 1) and nothing is written. Write a secret as ${VAR}: '-e TOKEN=${TOKEN}'.",
  ],
  unknownFlagHint: 'a server\'s own flags go after "--": vibe-agent mcp add NAME -- COMMAND ARGS...',
  words: [
    { word: 'list', help: 'the MCP servers: state, tools, start time, where each is configured' },
    { word: 'get', usage: 'get NAME', maxWords: 1, help: 'one server: its entry (secrets masked), its file, whether a run starts it' },
    { word: 'add', usage: 'add NAME [URL]', maxWords: 2, passthrough: 'COMMAND ARGS…', help: 'check a server (start it, list its tools), then write it to the user config or .mcp.json' },
    { word: 'add-json', usage: 'add-json NAME JSON', maxWords: 2, help: "the same, from an entry in .mcp.json's shape" },
    { word: 'remove', usage: 'remove NAME', maxWords: 1, help: 'take a server out of the file that holds it' },
    { word: 'serve', help: 'our tools as an MCP server over stdio (read-only ones unless --permission-mode or --yes)' },
  ],
  flags: [...MCP_MANAGE_FLAGS, { flag: 'http', value: '[HOST:]PORT', help: 'with serve: streamable HTTP at /mcp on 127.0.0.1 (or HOST) instead of stdio; bearer token from VIBE_MCP_TOKEN, else printed' }],
  parse: parseMcpArgs,
  run: async (args) => (await import('./mcp-command.js')).mcpCommand(args),
});
