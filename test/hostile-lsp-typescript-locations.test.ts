/**
 * Every place typescript-language-server takes a TypeScript from is asked about (issue 34, class 1):
 * node_modules/typescript, .vscode/pnpify and .yarn/sdks, in the workspace and every folder above
 * it (a monorepo root), all in the one trust question; the fallback outside never picks one of them.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_IN_SERVERS } from '../src/lsp/server-catalog.js';
import { SEARCHED_FOLDERS, withOutsideTsserver, workspaceTsserverTrust, workspaceTsservers } from '../src/lsp/workspace-typescript.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'vibe-lsp-ts-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const spec = BUILT_IN_SERVERS.find((server) => server.name === 'typescript-language-server')!;

function plant(lib: string): string {
  mkdirSync(lib, { recursive: true });
  writeFileSync(join(lib, 'tsserver.js'), 'process.exit(0)\n');
  return join(lib, 'tsserver.js');
}

describe('the TypeScript a language server may load', () => {
  it('property: every planted location, in the workspace or any folder above it, is found and shown in the question', () => {
    let run = 0;
    fc.assert(
      fc.property(fc.array(fc.record({ depth: fc.integer({ min: 0, max: 3 }), folder: fc.constantFrom(...SEARCHED_FOLDERS) }), { maxLength: 6 }), (planted) => {
        const base = join(root, `case-${run++}`);
        const levels = [base, join(base, 'a'), join(base, 'a', 'b'), join(base, 'a', 'b', 'ws')];
        const workspace = levels[3]!;
        mkdirSync(workspace, { recursive: true });
        const expected = new Set(planted.map(({ depth, folder }) => plant(join(levels[depth]!, folder))));
        const found = workspaceTsservers({ spec, executable: '/usr/bin/typescript-language-server', fromProject: false }, workspace).filter((path) => path.startsWith(base));
        expect(new Set(found)).toEqual(expected);
        const question = workspaceTsserverTrust(found);
        expect(question.question.facts.map((fact) => fact.value)).toEqual(found);
        expect(question.config).toEqual({ tsservers: found });
      }),
      { numRuns: 40 },
    );
  });

  it('the fallback beside the server is not one of the refused locations', () => {
    const monorepo = join(root, 'mono');
    const workspace = join(monorepo, 'packages', 'app');
    mkdirSync(workspace, { recursive: true });
    const rootTs = plant(join(monorepo, 'node_modules', 'typescript', 'lib'));
    const bin = join(monorepo, 'node_modules', '.bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'typescript-language-server'), '#!/bin/sh\n', { mode: 0o755 });
    const found = { spec, executable: join(bin, 'typescript-language-server'), fromProject: false };
    expect(workspaceTsservers(found, workspace)).toContain(rootTs);
    expect(withOutsideTsserver(found, workspace, [rootTs])).toBeUndefined();
    expect(withOutsideTsserver(found, workspace)?.spec.initializationOptions).toMatchObject({ tsserver: { path: rootTs } });
  });

  it('another server is never asked about TypeScript', () => {
    const other = BUILT_IN_SERVERS.find((server) => server.name !== 'typescript-language-server')!;
    expect(workspaceTsservers({ spec: other, executable: '/usr/bin/x', fromProject: false }, root)).toEqual([]);
  });
});
