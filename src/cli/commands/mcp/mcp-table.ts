import { homedir } from 'node:os';
import type { McpServers, ServerStatus } from '../../../mcp/mcp-servers.js';
import type { ServerOrigin } from '../../../mcp/server-spec.js';

const FORMATS: Record<ServerOrigin['format'], string> = {
  'vibe-agent': 'vibe-agent config',
  'claude-code': 'Claude Code .mcp.json',
  'gemini-cli': 'Gemini CLI settings',
  codex: 'Codex config.toml',
};

/** Where a server came from, in words: "project · Claude Code .mcp.json · /repo/.mcp.json". */
export function originWords(origin: ServerOrigin, home = homedir()): string {
  const file = origin.file.startsWith(`${home}/`) ? `~${origin.file.slice(home.length)}` : origin.file;
  return `${origin.scope} · ${FORMATS[origin.format]} · ${file}`;
}

/** `vibe-agent mcp list` and /mcp: one line per server, then why each failed one failed. */
export function serverTable(statuses: ServerStatus[]): string[] {
  if (statuses.length === 0) return ['No MCP servers configured. See docs/mcp-and-hooks.md to add one.'];
  const rows = statuses.map((server) => [
    server.name,
    server.state,
    String(server.tools),
    server.startMs !== undefined ? `${server.startMs} ms` : '—',
    server.startedAt ? server.startedAt.toISOString().slice(11, 19) : '—',
    originWords(server.origin),
  ]);
  const header = ['SERVER', 'STATE', 'TOOLS', 'STARTED IN', 'AT (UTC)', 'FROM'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ');
  const problems = statuses.filter((server) => server.error).map((server) => `  ${server.name}: ${server.error}`);
  return [line(header), ...rows.map(line), ...(problems.length ? ['', ...problems] : [])];
}

/** The ready servers' prompts (as the slash commands that run them) and resources, for `mcp list` and /mcp. */
export function offeringsTable(servers: Pick<McpServers, 'promptCommands' | 'resources'>): string[] {
  const prompts = servers.promptCommands().map((command) => `  /${`${command.name} ${command.argumentHint}`.trim()}${command.description ? `  ${command.description}` : ''}`);
  const resources = servers.resources().map((resource) => `  ${resource.server}  ${resource.uri}  ${resource.name}${resource.mimeType ? ` (${resource.mimeType})` : ''}`);
  return [
    ...(prompts.length ? ['', 'Prompts (slash commands):', ...prompts] : []),
    ...(resources.length ? ['', 'Resources (the model reads them with read_mcp_resource):', ...resources] : []),
  ];
}
