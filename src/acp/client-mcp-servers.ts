import type { McpServer } from '@agentclientprotocol/sdk';
import type { ServerEntry } from '../mcp/server-spec.js';

/** The MCP servers an editor passes with a session, in our terms; the origin names the editor for messages. */
export function clientMcpServers(servers: readonly McpServer[], clientName: string): ServerEntry[] {
  const origin = { scope: 'user' as const, file: `the ACP client (${clientName})`, format: 'vibe-agent' as const };
  return servers.map((server): ServerEntry => {
    if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
      return { name: server.name, origin, spec: { transport: server.type, url: server.url, headers: Object.fromEntries(server.headers.map((h) => [h.name, h.value])) } };
    }
    const stdio = server as Extract<McpServer, { command: string }>;
    return { name: stdio.name, origin, spec: { transport: 'stdio', command: stdio.command, args: stdio.args, env: Object.fromEntries(stdio.env.map((v) => [v.name, v.value])) } };
  });
}
