import { describe, expect, it } from 'vitest';
import { chooseHunks, onlyFiles } from '../src/cli/commands/background/land-choice.js';
import { hunksIn, splitHunks, withChosen } from '../src/background/land-hunks.js';
import type { FileChange } from '../src/background/merge-into-tree.js';

const lines = (...all: string[]) => Buffer.from(all.map((line) => `${line}\n`).join(''));
const BASE = lines('a', 'b', 'c', 'd', 'e', 'f', 'g');
const THEIRS = lines('A', 'b', 'c', 'd', 'e', 'f', 'g', 'h');

describe('land: choosing hunks', () => {
  it('splits a change into its hunks and rebuilds the file with only the chosen ones, byte for byte', () => {
    const parts = splitHunks(BASE, THEIRS)!;
    const hunks = hunksIn(parts);
    expect(hunks.map((hunk) => [hunk.line, hunk.removed, hunk.added])).toEqual([
      [1, 'a\n', 'A\n'],
      [8, '', 'h\n'],
    ]);
    expect(withChosen(parts, new Set(hunks)).equals(THEIRS)).toBe(true);
    expect(withChosen(parts, new Set()).equals(BASE)).toBe(true);
    expect(withChosen(parts, new Set([hunks[1]!])).toString()).toBe('a\nb\nc\nd\ne\nf\ng\nh\n');
    // A last line with no newline keeps its bytes either way.
    const noEol = splitHunks(Buffer.from('x\ny'), Buffer.from('x\nz'))!;
    expect(withChosen(noEol, new Set()).toString()).toBe('x\ny');
    expect(withChosen(noEol, new Set(hunksIn(noEol))).toString()).toBe('x\nz');
  });

  it('asks hunk by hunk (whole files for created ones) and reports whether everything was chosen', async () => {
    const changes: FileChange[] = [
      { path: 'two.txt', base: BASE, theirs: THEIRS },
      { path: 'new.txt', base: undefined, theirs: lines('new') },
    ];
    const asked: string[] = [];
    const answers = [false, true, true];
    const choice = (await chooseHunks(changes, async (question) => {
      asked.push(question);
      return answers.shift()!;
    }))!;
    expect(asked).toEqual(['Land this hunk (1 of 2 in two.txt)?', 'Land this hunk (2 of 2 in two.txt)?', 'new.txt: created by the session. Land it?']);
    expect(choice.everything).toBe(false);
    expect(choice.changes.map((change) => [change.path, change.theirs?.toString()])).toEqual([
      ['two.txt', 'a\nb\nc\nd\ne\nf\ng\nh\n'],
      ['new.txt', 'new\n'],
    ]);
    const none = await chooseHunks(changes, async () => false);
    expect(none).toEqual({ changes: [], everything: false });
  });

  it('stops at the question where Ctrl-C was pressed, choosing nothing', async () => {
    const changes: FileChange[] = [{ path: 'two.txt', base: BASE, theirs: THEIRS }];
    const controller = new AbortController();
    let asked = 0;
    const choice = await chooseHunks(
      changes,
      async () => {
        asked++;
        controller.abort();
        return false;
      },
      controller.signal,
    );
    expect(choice).toBeUndefined();
    expect(asked).toBe(1);
  });

  it('--only takes whole files and refuses a file the session did not change', () => {
    const changes: FileChange[] = [
      { path: 'a.txt', base: BASE, theirs: THEIRS },
      { path: 'b.txt', base: BASE, theirs: THEIRS },
    ];
    expect(onlyFiles(changes, ['b.txt'])).toEqual({ changes: [changes[1]], everything: false });
    expect(onlyFiles(changes, ['a.txt', 'b.txt']).everything).toBe(true);
    expect(() => onlyFiles(changes, ['c.txt'])).toThrow('the session did not change c.txt (it changed a.txt, b.txt)');
  });
});
