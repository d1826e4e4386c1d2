import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createCodeNavTool } from '../../src/lsp/code-nav-tool.js';
import { admittedServers } from '../../src/lsp/code-nav-setup.js';
import { LspServers } from '../../src/lsp/lsp-servers.js';

const BIN = join(import.meta.dirname, '..', '..', 'node_modules', '.bin');

/**
 * code_nav (the library's) against this repository's typescript-language-server, in copies of a
 * fixture made outside this repository (whose tsconfig.json would otherwise be found above them).
 * `close` stops the servers and removes the copies.
 */
export function codeNavWorkspaces() {
  const made: string[] = [];
  const running: LspServers[] = [];
  return {
    /** A copy of `fixture` with `extra` files written over it; the code_nav call as text. */
    async navIn(fixture: string, extra: Record<string, string> = {}) {
      const workspace = mkdtempSync(join(tmpdir(), 'vibe-lsp-js-'));
      made.push(workspace);
      cpSync(fixture, workspace, { recursive: true });
      for (const [path, text] of Object.entries(extra)) {
        mkdirSync(dirname(join(workspace, path)), { recursive: true });
        writeFileSync(join(workspace, path), text);
      }
      const env = { ...process.env, PATH: `${BIN}:${process.env.PATH ?? ''}` };
      const found = await admittedServers({ workspace, env, userServers: {}, projectServers: {}, trustAll: false, ask: undefined, warn: () => {} });
      // A question may wait long for a server started on a machine at load 20 or more; what is tested is the answer.
      const servers = new LspServers({ found, workspace, env, timeoutMs: 120_000 });
      running.push(servers);
      const nav = createCodeNavTool({ servers });
      return async (args: Record<string, unknown>) => {
        const result = await nav.execute(args, { signal: new AbortController().signal, workspace });
        return typeof result === 'string' ? result : result.output;
      };
    },
    async close() {
      await Promise.all(running.map((servers) => servers.close()));
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
    },
  };
}
