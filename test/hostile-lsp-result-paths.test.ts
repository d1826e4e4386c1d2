/**
 * A place a language server names is shown with its line's text only when the file really lies in
 * the workspace (issue 34, class 2): resolved through the confined opener like read_file, so a
 * repository link (`vendor -> ../outside`) does not print lines of files outside it.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { formatLocations, LineReader } from '../src/lsp/format-results.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'vibe-lsp-paths-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('places named by a language server', () => {
  it('property: through any chain of links, text is shown exactly when the real file is inside the workspace', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[a-z]{1,8}$/), fc.boolean(), fc.boolean(), async (name, leadsOut, viaDirLink) => {
        const base = join(root, `case-${run++}`);
        const workspace = join(base, 'ws');
        const outside = join(base, 'outside');
        mkdirSync(join(workspace, 'src'), { recursive: true });
        mkdirSync(outside, { recursive: true });
        writeFileSync(join(outside, `${name}.ts`), 'export const OUTSIDE_SECRET_LINE = 1;\n');
        writeFileSync(join(workspace, 'src', `${name}.ts`), 'export const inside = 1;\n');
        const target = leadsOut ? outside : join(workspace, 'src');
        const link = join(workspace, 'vendor');
        if (viaDirLink) symlinkSync(target, link);
        else {
          mkdirSync(link);
          symlinkSync(join(target, `${name}.ts`), join(link, `${name}.ts`));
        }
        const uri = pathToFileURL(join(link, `${name}.ts`)).href;
        const text = await formatLocations(new LineReader(workspace), [{ uri, range: { start: { line: 0, character: 13 }, end: { line: 0, character: 20 } } }], 'definitions');
        expect(text).toContain(`vendor/${name}.ts:1:14:`);
        if (leadsOut) expect(text).not.toContain('OUTSIDE_SECRET_LINE');
        else expect(text).toContain('export const inside = 1;');
      }),
      { numRuns: 30 },
    );
  });

  it('a secret file in the workspace shows no text', async () => {
    const workspace = join(root, 'secret-ws');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, '.env'), 'API_KEY=sk-live-abcdefghijklmnop\n');
    const text = await formatLocations(new LineReader(workspace), [{ uri: pathToFileURL(join(workspace, '.env')).href, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } }], 'references');
    expect(text).not.toContain('sk-live');
  });
});
