import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { symbolCandidates } from '../src/lsp/symbol-position.js';
import { applyTextEdits, planWorkspaceEdit, writeAllOrNone } from '../src/lsp/workspace-edit.js';
import { diskFileAccess } from '../src/tools/coding/shared/file-access.js';
import { FileReadTracker } from '../src/tools/coding/shared/read-tracker.js';
import { pathToFileURL } from 'node:url';

const root = mkdtempSync(join(tmpdir(), 'vibe-lsp-edit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });

describe('symbolCandidates', () => {
  const text = 'import { area } from "./x";\nconst areas = area(1);\nexport { area };\n';
  it('lists every whole-word occurrence for the server to choose among', () => {
    expect(symbolCandidates(text, { symbol: 'area' })).toEqual({ ok: true, name: 'area', candidates: [{ line: 0, character: 9 }, { line: 1, character: 14 }, { line: 2, character: 9 }] });
  });
  it('finds the name on a given line, by its last part when dotted; a line and column are taken as given, with the word there', () => {
    expect(symbolCandidates(text, { symbol: 'Shape.area', line: 2 })).toEqual({ ok: true, name: 'area', candidates: [{ line: 1, character: 14 }] });
    expect(symbolCandidates(text, { line: 2, column: 9 })).toEqual({ ok: true, exact: { line: 1, character: 8 }, name: 'areas' });
  });
  it('refuses a name that is not there and a line past the end, saying so', () => {
    expect(symbolCandidates(text, { symbol: 'areas', line: 3 })).toEqual({ ok: false, error: '"areas" is not on line 3: export { area };' });
    expect(symbolCandidates(text, { symbol: 'nowhere' })).toMatchObject({ ok: false, error: '"nowhere" does not occur in the file as a whole word' });
    expect(symbolCandidates(text, { line: 9 })).toMatchObject({ ok: false });
  });
});

describe('applyTextEdits', () => {
  it('replaces every occurrence the server names, in any order, as a plain replaceAll would', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('area', 'x', ' ', '\n', 'é', '😀', 'areal'), { maxLength: 40 }), fc.boolean(), (parts, reversed) => {
        const text = parts.join('');
        const edits: { range: ReturnType<typeof range>; newText: string }[] = [];
        text.split('\n').forEach((line, number) => {
          for (let at = line.indexOf('area'); at !== -1; at = line.indexOf('area', at + 1)) edits.push({ range: range(number, at, at + 4), newText: 'surface' });
        });
        expect(applyTextEdits(text, reversed ? edits.reverse() : edits)).toBe(text.replaceAll('area', 'surface'));
      }),
    );
  });
});

describe('a workspace edit lands whole or not at all', () => {
  it('when one write fails, the files already written get their old text back', async () => {
    const ws = join(root, 'rollback');
    mkdirSync(ws, { recursive: true });
    for (const name of ['a.ts', 'b.ts']) writeFileSync(join(ws, name), `export const area = 1; // ${name}\n`);
    const edits = (name: string) => [{ range: range(0, 13, 17), newText: 'surface' }].map((edit) => ({ ...edit, uri: name }));
    const plan = await planWorkspaceEdit(
      { changes: Object.fromEntries(['a.ts', 'b.ts'].map((name) => [pathToFileURL(join(ws, name)).href, edits(name).map(({ range: r, newText }) => ({ range: r, newText }))])) },
      { workspace: ws, extraRoots: [], allowSecrets: false, access: diskFileAccess, tracker: new FileReadTracker() },
    );
    if (!plan.ok) throw new Error(plan.error);
    expect(plan.files.map((file) => file.after)).toEqual(['export const surface = 1; // a.ts\n', 'export const surface = 1; // b.ts\n']);
    let writes = 0;
    const failingSecond = { ...diskFileAccess, write: async (path: string, bytes: Uint8Array, options: { mode?: number }) => {
      if (++writes === 2) throw new Error('disk full');
      return diskFileAccess.write(path, bytes, options);
    } };
    await expect(writeAllOrNone(plan.files, failingSecond)).rejects.toThrow('writing b.ts failed (disk full); the 1 file(s) already written were put back, so nothing changed');
    expect(readFileSync(join(ws, 'a.ts'), 'utf8')).toBe('export const area = 1; // a.ts\n');
    expect(readFileSync(join(ws, 'b.ts'), 'utf8')).toBe('export const area = 1; // b.ts\n');
  });

  it('refuses the whole edit when a file the agent read has changed since, or lies outside the workspace', async () => {
    const ws = join(root, 'stale');
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, 'a.ts'), 'export const area = 1;\n');
    const tracker = new FileReadTracker();
    tracker.record(join(ws, 'a.ts'), Buffer.from('export const area = 0;\n'), 0);
    const rules = { workspace: ws, extraRoots: [], allowSecrets: false, access: diskFileAccess, tracker };
    const edit = (path: string) => ({ changes: { [pathToFileURL(path).href]: [{ range: range(0, 13, 17), newText: 'surface' }] } });
    expect(await planWorkspaceEdit(edit(join(ws, 'a.ts')), rules)).toEqual({ ok: false, error: 'a.ts changed since you last read it; read it again before renaming. Nothing was changed.' });
    expect(await planWorkspaceEdit(edit(join(root, 'outside.ts')), rules)).toMatchObject({ ok: false, error: expect.stringContaining('is outside the workspace') });
    expect(await planWorkspaceEdit({ documentChanges: [{ kind: 'delete', uri: pathToFileURL(join(ws, 'a.ts')).href }] }, rules)).toMatchObject({ ok: false, error: expect.stringContaining('would delete a file') });
  });
});
