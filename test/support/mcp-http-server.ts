/** The test MCP server over HTTP: streamable HTTP (stateless) at /mcp, or only the older HTTP+SSE transport. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
// @ts-expect-error: a plain ESM script shared with the stdio tests.
import { createTestServer } from './mcp-test-server.mjs';
import { readBody } from './http-replies.js';

export interface McpHttpServer {
  url: string;
  /** The headers of every request, in order. */
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function startMcpHttpServer(kind: 'streamable' | 'sse-only'): Promise<McpHttpServer> {
  const headers: IncomingHttpHeaders[] = [];
  const sessions = new Map<string, SSEServerTransport>();
  const server: Server = createServer(async (req, res) => {
    headers.push(req.headers);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (kind === 'streamable' && path === '/mcp' && req.method === 'POST') {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const mcp = createTestServer('http');
      res.on('close', () => void mcp.close());
      await mcp.connect(transport);
      await transport.handleRequest(req, res, JSON.parse(await readBody(req)));
      return;
    }
    if (kind === 'sse-only' && path === '/mcp' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      await createTestServer('sse').connect(transport);
      return;
    }
    if (kind === 'sse-only' && path === '/messages' && req.method === 'POST') {
      const transport = sessions.get(new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId') ?? '');
      if (transport) return transport.handlePostMessage(req, res);
    }
    res.writeHead(405).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    headers,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
