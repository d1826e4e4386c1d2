import { defineCommand } from '../../args/command-spec.js';
import { parseMcpArgs } from './mcp-args.js';

export const mcpSpec = defineCommand({
  name: 'mcp',
  summary: 'the MCP servers (mcp list), or our tools as an MCP server (mcp serve)',
  usage: ['mcp list', 'mcp serve [--http [HOST:]PORT]'],
  words: [
    { word: 'list', help: 'the MCP servers: state, tools, start time, where each is configured' },
    { word: 'serve', help: 'our tools as an MCP server over stdio (read-only ones unless --permission-mode or --yes)' },
  ],
  flags: [{ flag: 'http', value: '[HOST:]PORT', help: 'with serve: streamable HTTP at /mcp on 127.0.0.1 (or HOST) instead of stdio; bearer token from VIBE_MCP_TOKEN, else printed' }],
  parse: parseMcpArgs,
  run: async (args) => (await import('./mcp-command.js')).mcpCommand(args),
});
