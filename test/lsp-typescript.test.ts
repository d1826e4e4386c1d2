import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCodeNavTool } from '../src/lsp/code-nav-tool.js';
import { admittedServers } from '../src/lsp/code-nav-setup.js';
import { LspServers } from '../src/lsp/lsp-servers.js';

// The library's code_nav against this repository's typescript-language-server, on one project, in one session.
const BIN = join(import.meta.dirname, '..', 'node_modules', '.bin');
const workspace = mkdtempSync(join(tmpdir(), 'vibe-lsp-ts-'));
let servers: LspServers | undefined;
afterAll(async () => {
  await servers?.close();
  rmSync(workspace, { recursive: true, force: true });
});

const files: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022' }, include: ['src'] }),
  'src/shape.ts': '/** Anything with a surface. */\nexport interface Shape {\n  area(): number;\n}\n',
  'src/square.ts': "import type { Shape } from './shape.js';\n\nexport class Square implements Shape {\n  constructor(private side: number) {}\n  area(): number {\n    return this.side * this.side;\n  }\n}\n",
  'src/circle.ts': "import type { Shape } from './shape.js';\n\nexport class Circle implements Shape {\n  constructor(private radius: number) {}\n  area(): number {\n    return Math.PI * this.radius ** 2;\n  }\n}\n",
  'src/total.ts': "import type { Shape } from './shape.js';\n\nexport function total(shapes: Shape[]): number {\n  return shapes.reduce((sum, shape) => sum + shape.area(), 0);\n}\n\nexport function report(shapes: Shape[]): string {\n  return `total ${total(shapes)}`;\n}\n",
};
for (const [path, text] of Object.entries(files)) {
  mkdirSync(join(workspace, path, '..'), { recursive: true });
  writeFileSync(join(workspace, path), text);
}

async function tool() {
  const env = { ...process.env, PATH: `${BIN}:${process.env.PATH ?? ''}` };
  const found = await admittedServers({ workspace, env, userServers: {}, projectServers: {}, trustAll: false, ask: undefined, warn: () => {} });
  servers = new LspServers({ found, workspace, env });
  return createCodeNavTool({ servers });
}

describe('code_nav on TypeScript (library)', () => {
  it('implementations, hover with docs, incoming and outgoing calls, a workspace symbol query', { timeout: 120_000 }, async () => {
    const nav = await tool();
    const ask = async (args: Record<string, unknown>) => String(await nav.execute(args, { signal: new AbortController().signal, workspace }));
    const implementations = await ask({ operation: 'implementations', path: 'src/shape.ts', symbol: 'area' });
    expect(implementations).toContain('2 implementation(s) of area:');
    expect(implementations).toContain('src/circle.ts:5:3: area(): number {');
    expect(implementations).toContain('src/square.ts:5:3: area(): number {');
    expect(await ask({ operation: 'hover', path: 'src/total.ts', symbol: 'Shape', line: 3 })).toContain('Anything with a surface.');
    const callers = await ask({ operation: 'incoming_calls', path: 'src/total.ts', symbol: 'total', line: 3 });
    expect(callers).toContain('1 calls of total:');
    expect(callers).toContain('src/total.ts:8:19: return `total ${total(shapes)}`;  (in report)');
    const callees = await ask({ operation: 'outgoing_calls', path: 'src/total.ts', symbol: 'total', line: 3 });
    expect(callees).toMatch(/src\/total\.ts:4:\d+: return shapes\.reduce.* {2}→ area \(src\/shape\.ts:3:3\)/);
    const query = await ask({ operation: 'symbols', query: 'Circle' });
    expect(query).toContain('src/circle.ts:3:1: export class Circle implements Shape {  [class Circle]');
  });
});
