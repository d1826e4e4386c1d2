import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConnection } from '../src/mcp/mcp-connection.js';
import { until } from './support/processes.js';
// @ts-expect-error: a plain ESM script shared with the stdio tests.
import { createTestServer } from './support/mcp-test-server.mjs';

interface SessionServer {
  url: string;
  /** The DELETE requests received, with whether the client has since hung up on each. */
  deletes: Array<{ session: string | undefined; hungUp: boolean }>;
  close(): Promise<void>;
}

/** A streamable HTTP server with sessions; `answerDelete: false` never answers a DELETE. */
async function startSessionServer(answerDelete: boolean): Promise<SessionServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const deletes: SessionServer['deletes'] = [];
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const session = req.headers['mcp-session-id'] as string | undefined;
    if (req.method === 'DELETE') {
      const record = { session, hungUp: false };
      deletes.push(record);
      res.on('close', () => (record.hungUp = !res.writableEnded));
      if (!answerDelete) return;
    }
    let transport = session ? transports.get(session) : undefined;
    if (!transport) {
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id): void => void transports.set(id, created),
      });
      await createTestServer('http').connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    deletes,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const servers: SessionServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function readyConnection(answerDelete: boolean) {
  const server = await startSessionServer(answerDelete);
  servers.push(server);
  const connection = new McpConnection('web', { transport: 'http', url: server.url, headers: {} }, { clientVersion: 'test' });
  await connection.start();
  expect(connection.state, connection.error).toBe('ready');
  return { server, connection };
}

describe('stopping a streamable HTTP MCP connection', () => {
  it('ends its session on the server (DELETE with the session id)', async () => {
    const { server, connection } = await readyConnection(true);
    expect(server.deletes).toEqual([]);
    await connection.stop();
    expect(server.deletes).toEqual([{ session: expect.stringMatching(/^[0-9a-f-]{36}$/), hungUp: false }]);
  });

  it('a server that never answers the DELETE does not hold the stop: the request is given up', async () => {
    const { server, connection } = await readyConnection(false);
    await connection.stop();
    expect(server.deletes).toHaveLength(1);
    await until(() => server.deletes[0]!.hungUp, 'the client to hang up on the unanswered DELETE');
  });
});
