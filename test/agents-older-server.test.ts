import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fetchAgentRow, fetchAgentRows } from '../src/cli/commands/background/agent-status.js';
import type { ServerConnection } from '../src/cli/commands/background/server-address.js';
import { createVibeClient } from '../src/client/create-client.js';

// A server of an earlier version: it answers its sessions routes but has no /v1/agents (404, as an unknown route).
let server: Server;
let connection: ServerConnection;
const asked: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}`;
  connection = { url, pid: 4242, token: 't', client: createVibeClient({ baseUrl: url, token: 't' }) };
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const entry = { id: 'a1', name: 'first', repo: '/r', workspace: '/r', createdAt: '2026-12-07T00:00:00Z' };

it('a server without the agents routes is named as an earlier version, with how to stop it', async () => {
  await expect(fetchAgentRows([entry], connection)).rejects.toThrow(/process 4242.*earlier version of vibe-agent.*kill 4242/);
  await expect(fetchAgentRow(entry, connection)).rejects.toThrow(/earlier version of vibe-agent/);
  expect(asked).toContain('GET /v1/agents');
  expect(asked).toContain('GET /v1/agents/a1');
});

it('with no server, every session is shown stopped', async () => {
  expect((await fetchAgentRows([entry], undefined))[0]).toMatchObject({ id: 'a1', state: 'stopped' });
});
