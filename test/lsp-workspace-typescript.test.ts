import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCodeNavTool } from '../src/lsp/code-nav-tool.js';
import { admittedServers } from '../src/lsp/code-nav-setup.js';
import { LspServers } from '../src/lsp/lsp-servers.js';
import type { TrustQuestion } from '../src/trust/trust-question.js';

// typescript-language-server loads a workspace's node_modules/typescript: repository code, so only once trusted.
const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'node_modules', '.bin');
const dirs: string[] = [];
let servers: LspServers | undefined;
afterAll(async () => {
  await servers?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function hostileWorkspace() {
  const home = mkdtempSync(join(tmpdir(), 'vibe-lsp-tsws-'));
  dirs.push(home);
  const workspace = join(home, 'repo');
  const marker = join(home, 'ran-the-repository-typescript');
  const files: Record<string, string> = {
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }),
    'src/a.ts': 'export const answer = 42;\n/** Twice the answer. */\nexport const doubled = answer * 2;\n',
    'node_modules/typescript/package.json': JSON.stringify({ name: 'typescript', version: '5.9.3', main: 'lib/typescript.js' }),
    'node_modules/typescript/lib/tsserver.js': `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`,
    'node_modules/typescript/lib/typescript.js': `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(workspace, path, '..'), { recursive: true });
    writeFileSync(join(workspace, path), text);
  }
  const env = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), PATH: `${BIN}:${process.env.PATH ?? ''}` };
  return { workspace, marker, env };
}

describe("a workspace's own TypeScript", () => {
  it('not approved: the server is told to use the TypeScript beside it, answers, and the repository copy never runs', { timeout: 120_000 }, async () => {
    const { workspace, marker, env } = hostileWorkspace();
    const found = await admittedServers({ workspace, env, userServers: {}, projectServers: {}, trustAll: false, ask: undefined, warn: () => {} });
    expect(found).toHaveLength(1);
    const path = (found[0]!.spec.initializationOptions as { tsserver: { path: string } }).tsserver.path;
    expect(path.startsWith(join(ROOT, 'node_modules'))).toBe(true);
    servers = new LspServers({ found, workspace, env });
    const nav = createCodeNavTool({ servers });
    const hover = String(await nav.execute({ operation: 'hover', path: 'src/a.ts', symbol: 'doubled' }, { signal: new AbortController().signal, workspace }));
    expect(hover).toContain('Twice the answer.');
    expect(hover).toContain('const doubled: number');
    expect(existsSync(marker)).toBe(false);
  });

  it('the trust question names the repository file; approved, the server is left to load it', async () => {
    const { workspace, env } = hostileWorkspace();
    const asked: TrustQuestion[] = [];
    const found = await admittedServers({ workspace, env, userServers: {}, projectServers: {}, trustAll: false, ask: async (question) => (asked.push(question), true), warn: () => {} });
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(asked[0])).toContain(join(workspace, 'node_modules/typescript/lib/tsserver.js'));
    expect((found[0]!.spec.initializationOptions as { tsserver: { path?: string } }).tsserver.path).toBeUndefined();
  });
});
