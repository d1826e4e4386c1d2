import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCodeNavTool } from '../src/lsp/code-nav-tool.js';
import { LspServers } from '../src/lsp/lsp-servers.js';
import { configuredServer } from '../src/lsp/server-catalog.js';

const FAKE_SERVER = join(import.meta.dirname, 'fixtures', 'lsp', 'fake-server.mjs');
const workspace = mkdtempSync(join(tmpdir(), 'vibe-lsp-client-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
writeFileSync(join(workspace, 'a.slow'), 'x\n');

function slowServer() {
  const spec = configuredServer('slow', { command: process.execPath, args: [FAKE_SERVER, 'slow'], extensions: ['.slow'], timeout: 600 }, 'user');
  const servers = new LspServers({ found: [{ spec, executable: process.execPath, fromProject: false }], workspace, env: process.env });
  return { servers, tool: createCodeNavTool({ servers }) };
}

/** Resolves once a server is up (initialized), with its process ids. */
async function running(servers: LspServers): Promise<number[]> {
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      const pids = servers.runningPids();
      if (pids.length) {
        clearInterval(poll);
        resolve(pids);
      }
    }, 5);
  });
}

describe('the language-server client', () => {
  it('a request the server sits on is stopped with the call (its AbortSignal), long before its own time limit', async () => {
    const { servers, tool } = slowServer();
    const controller = new AbortController();
    // Aborted once the question is out: the server has answered initialize and been sent the file.
    const asked = tool.execute({ operation: 'hover', path: 'a.slow', symbol: 'x' }, { signal: controller.signal, workspace });
    await running(servers);
    controller.abort();
    expect(await asked).toEqual({ output: expect.stringContaining('code_nav hover failed: textDocument/hover was stopped with the call'), isError: true });
    await servers.close();
  });

  it('a server that ignores shutdown and exit is killed, so closing never hangs', async () => {
    const { servers, tool } = slowServer();
    const controller = new AbortController();
    const asked = tool.execute({ operation: 'hover', path: 'a.slow', symbol: 'x' }, { signal: controller.signal, workspace });
    const [pid] = await running(servers);
    controller.abort();
    await asked;
    await servers.close();
    expect(() => process.kill(pid!, 0)).toThrow(/ESRCH/);
  });
});
