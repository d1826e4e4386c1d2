import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addBackgroundEntry } from '../src/background/background-registry.js';
import { fetchAgentRow, fetchAgentRows } from '../src/cli/commands/background/agent-status.js';
import type { ServerConnection } from '../src/cli/commands/background/server-address.js';
import { servedAgents } from '../src/cli/commands/serve/served-agents.js';
import { createVibeClient } from '../src/client/create-client.js';
import type { HostedSession } from '../src/server/session-port.js';

// Nothing in `agents` waits silently: a server that never answers is named, a session that never opens is a row that says so.

let silent: Server;
let connection: ServerConnection;
const held: Array<() => void> = [];

beforeAll(async () => {
  // Reads the request and never answers (a stuck server), until the test is over.
  silent = createServer((request, response) => held.push(() => response.destroy()));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const address = silent.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}`;
  connection = { url, pid: 4242, token: 't', client: createVibeClient({ baseUrl: url, token: 't' }) };
});

afterAll(async () => {
  for (const release of held) release();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

const entry = { id: 'a1', name: 'first', repo: '/r', workspace: '/r', createdAt: '2026-12-07T00:00:00Z' };

it('a server that does not answer the list or a row is named, with what was asked, once the bound has passed', async () => {
  await expect(fetchAgentRows([entry], connection, 300)).rejects.toThrow(/session server \(process 4242, http:\/\/127\.0\.0\.1:\d+\) did not answer GET \/v1\/agents within 0\.3 s.*kill 4242/);
  await expect(fetchAgentRow(entry, connection, 300)).rejects.toThrow(/did not answer GET \/v1\/agents\/a1 within 0\.3 s/);
});

it('a session the server is still opening is a row that says so; the others are listed meanwhile', async () => {
  const data = mkdtempSync(join(tmpdir(), 'vibe-agents-bounded-'));
  try {
    const env = { XDG_DATA_HOME: data };
    addBackgroundEntry(env, entry);
    addBackgroundEntry(env, { ...entry, id: 'b2', name: 'second' });
    const quick = { info: () => ({ id: 'b2', workspace: '/r', status: 'idle', lastSeq: 0, queued: 0, pendingApprovals: [] }), readAfter: async () => [] } as unknown as HostedSession;
    const open = (id: string) => (id === 'b2' ? Promise.resolve(quick) : new Promise<HostedSession | undefined>(() => {}));
    const rows = await servedAgents(env, 200).list(open);
    expect(rows.find((row) => row.id === 'a1')).toMatchObject({ state: 'stopped', problem: expect.stringMatching(/still opening it/) });
    expect(rows.find((row) => row.id === 'b2')).toMatchObject({ state: 'done' });
    expect(rows.find((row) => row.id === 'b2')?.problem).toBeUndefined();
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});
