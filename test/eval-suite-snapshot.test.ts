import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changedFiles, restoreFiles, snapshotSuite, writePrivateCopy } from '../src/eval/suite-snapshot.js';

/** Names a suite could hold: task files, checks in a folder, fixtures two folders down. */
const name = fc.constantFrom('a.json', 'b.json', 'checks/a.sh', 'checks/b.mjs', 'fixtures/a/test.mjs', 'fixtures/a/src/x.ts');
const content = fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes));
const suiteFiles = fc.dictionary(name, content, { minKeys: 1 });
/** What a run may do to the suite: rewrite, delete or add a file. */
const edit = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), name, content }),
  fc.record({ kind: fc.constant('delete' as const), name }),
);

function write(root: string, files: Record<string, Buffer>): void {
  for (const [file, bytes] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), bytes);
  }
}

describe('the suite snapshot checks run from', () => {
  it('names exactly the files a run changed, removed or added; restoring puts back all but the added; the private copy is the snapshot', () => {
    fc.assert(
      fc.property(suiteFiles, fc.array(edit, { maxLength: 6 }), (files, edits) => {
        const root = mkdtempSync(join(tmpdir(), 'vibe-eval-snapshot-test-'));
        let copy: string | undefined;
        try {
          write(root, files);
          const snapshot = snapshotSuite(root);
          const now = new Map(Object.entries(files));
          for (const change of edits) {
            if (change.kind === 'write') {
              write(root, { [change.name]: change.content });
              now.set(change.name, change.content);
            } else if (now.delete(change.name)) rmSync(join(root, change.name));
          }
          const names = new Set([...Object.keys(files), ...now.keys()]);
          const differ = [...names].filter((file) => !(files[file] && now.get(file)?.equals(files[file]))).sort();
          expect(changedFiles(snapshot)).toEqual(differ);

          restoreFiles(snapshot, differ);
          expect(changedFiles(snapshot)).toEqual(differ.filter((file) => !(file in files)));

          copy = writePrivateCopy(snapshot);
          expect(statSync(copy).mode & 0o777).toBe(0o700);
          for (const [file, bytes] of Object.entries(files)) expect(readFileSync(join(copy, file)).equals(bytes)).toBe(true);
          expect(changedFiles({ ...snapshot, root: copy })).toEqual([]);
        } finally {
          rmSync(root, { recursive: true, force: true });
          if (copy) rmSync(copy, { recursive: true, force: true });
        }
      }),
      { numRuns: 100 },
    );
  });

  it('a suite folder removed during a run counts as every file changed, and is put back whole', () => {
    const root = mkdtempSync(join(tmpdir(), 'vibe-eval-snapshot-test-'));
    try {
      write(root, { 'a.json': Buffer.from('{}'), 'checks/a.sh': Buffer.from('exit 1\n') });
      const snapshot = snapshotSuite(root);
      rmSync(root, { recursive: true });
      expect(changedFiles(snapshot)).toEqual(['a.json', 'checks/a.sh']);
      restoreFiles(snapshot, changedFiles(snapshot));
      expect(readFileSync(join(root, 'checks/a.sh'), 'utf8')).toBe('exit 1\n');
      expect(changedFiles(snapshot)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
