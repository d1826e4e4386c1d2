import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, run by CI as it is
import { findCycles, importGraph, moduleGraph } from '../scripts/check-layers.mjs';

type Graph = Map<string, Set<string>>;
const check = { findCycles, importGraph, moduleGraph } as {
  findCycles: (graph: Graph) => string[][];
  importGraph: (root?: string) => Graph;
  moduleGraph: (files: Graph) => Graph;
};

const fixtures: string[] = [];
afterAll(() => fixtures.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function fixture(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'layers-'));
  fixtures.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('module layers', () => {
  it('the check passes on src/ and fails on a copy with one upward import added on purpose', () => {
    const script = join(__dirname, '..', 'scripts', 'check-layers.mjs');
    const passing = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(passing.stderr).toBe('');
    expect(passing.status).toBe(0);
    const copy = mkdtempSync(join(tmpdir(), 'layers-src-'));
    fixtures.push(copy);
    cpSync(join(__dirname, '..', 'src'), copy, { recursive: true });
    // The trust question reaching up into the CLI's display again (it did before the layers were held).
    appendFileSync(join(copy, 'trust', 'trust-question.ts'), "\nexport { visibleValue as shown } from '../cli/display/visible-text.js';\n");
    const failing = spawnSync(process.execPath, [script, copy], { encoding: 'utf8' });
    expect(failing.status).toBe(1);
    expect(failing.stderr).toContain('upward: trust -> cli: trust/trust-question.ts imports cli/display/visible-text.ts');
  });

  it('src/ has no import cycle between files or between modules', () => {
    const files = check.importGraph();
    expect(files.size).toBeGreaterThan(100);
    expect(check.findCycles(files)).toEqual([]);
    expect(check.findCycles(check.moduleGraph(files))).toEqual([]);
  });

  it('the contracts at the bottom import nothing of ours above them', () => {
    const files = check.importGraph();
    const upward = [...files].flatMap(([file, targets]) =>
      file.startsWith('contracts/') ? [...targets].filter((t) => !t.startsWith('contracts/')).map((t) => `${file} -> ${t}`) : [],
    );
    expect(upward).toEqual([]);
  });

  it('finds a cycle between modules even when no two files import each other', () => {
    const root = fixture({
      'a/one.ts': "import { two } from '../b/two.js';\nexport const one = two;\n",
      'a/three.ts': 'export const three = 3;\n',
      'b/two.ts': "import type { three } from '../a/three.js';\nexport const two = 2;\n",
    });
    const files = check.importGraph(root);
    expect(check.findCycles(files)).toEqual([]);
    expect(check.findCycles(check.moduleGraph(files))).toEqual([['a', 'b']]);
  });

  it('finds a cycle between files, dynamic imports included', () => {
    const root = fixture({
      'x.ts': "export { y } from './y.js';\n",
      'y.ts': "export const y = 1;\nexport const load = () => import('./x.js');\n",
    });
    expect(check.findCycles(check.importGraph(root))).toEqual([['x.ts', 'y.ts']]);
  });
});
