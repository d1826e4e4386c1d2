import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeMention, workspaceLister, type Entry, type ListDir } from '../src/mentions/complete-mention.js';
import { runReviewChecks } from '../src/permissions/review-checks.js';
import { parseMentions } from '../src/mentions/parse-mentions.js';

const tree: Record<string, Entry[]> = {
  '.': [
    { name: 'src', isDir: true },
    { name: 'my notes', isDir: true },
    { name: 'README.md', isDir: false },
    { name: 'readme-old.md', isDir: false },
    { name: '.env', isDir: false },
    { name: '.git', isDir: true },
  ],
  'src/': [
    { name: 'alpha.ts', isDir: false },
    { name: 'alpine.ts', isDir: false },
    { name: 'beta.ts', isDir: false },
  ],
  'my notes/': [{ name: 'todo list.md', isDir: false }],
};
const seen: string[] = [];
const list: ListDir = (dir) => (seen.push(dir), tree[dir] ?? []);
const at = (text: string) => completeMention(text, text.length, list);

describe('completeMention', () => {
  it('completes a folder and waits inside it, then a file with a space after it', () => {
    expect(at('look at @sr')).toEqual({ text: 'look at @src/', cursor: 13, candidates: [] });
    expect(at('look at @src/b')).toEqual({ text: 'look at @src/beta.ts ', cursor: 21, candidates: [] });
  });

  it('goes as far as the candidates agree and lists them', () => {
    expect(at('@src/al')).toEqual({ text: '@src/alp', cursor: 8, candidates: ['alpha.ts', 'alpine.ts'] });
  });

  it('completes in the middle of the text, keeping what follows', () => {
    const text = 'see @src/be and more';
    expect(completeMention(text, 11, list)).toEqual({ text: 'see @src/beta.ts and more', cursor: 17, candidates: [] });
  });

  it('quotes a path with a space, and the quoted mention parses back to the path', () => {
    const folder = at('@my')!;
    expect(folder.text).toBe('@"my notes/');
    const file = at(folder.text)!;
    expect(file.text).toBe('@"my notes/todo list.md" ');
    expect(parseMentions(file.text).map((m) => m.path)).toEqual(['my notes/todo list.md']);
  });

  it('shows hidden files only for a dot, never .git', () => {
    expect(at('@.')).toEqual({ text: '@.env ', cursor: 6, candidates: [] });
    expect(at('@')!.candidates).toEqual(['README.md', 'my notes/', 'readme-old.md', 'src/']);
  });

  it('leaves e-mails, other words and paths out of the workspace alone', () => {
    expect(at('me@exa')).toBeUndefined();
    expect(at('plain words')).toBeUndefined();
    seen.length = 0;
    for (const text of ['@../x', '@/etc/pa', '@~/a', '@src/../../x']) expect(at(text)).toEqual({ text, cursor: text.length, candidates: [] });
    expect(seen).toEqual([]);
  });
});

describe('workspaceLister (the confined listing completions and a reviewer\'s list: share)', () => {
  it('never lists outside the workspace, through a folder link or an entry link, nor a secret file', async () => {
    const root = mkdtempSync(join(tmpdir(), 'vibe-complete-'));
    const outside = mkdtempSync(join(tmpdir(), 'vibe-complete-outside-'));
    try {
      writeFileSync(join(outside, 'outside-file.txt'), 'x');
      mkdirSync(join(root, 'src'));
      writeFileSync(join(root, 'src', 'a.ts'), '');
      writeFileSync(join(root, 'src', 'server.pem'), '');
      writeFileSync(join(root, '.env'), 'KEY=1');
      symlinkSync(outside, join(root, 'vendor'));
      symlinkSync(join(outside, 'outside-file.txt'), join(root, 'src', 'out-link.txt'));
      symlinkSync('.env', join(root, 'src', 'settings.txt'));
      symlinkSync('a.ts', join(root, 'src', 'b.ts'));
      const list = workspaceLister(root);
      expect(list('vendor/')).toEqual([]);
      expect(list('src/').map((entry) => entry.name).sort()).toEqual(['a.ts', 'b.ts']);
      expect(list('.').map((entry) => entry.name).sort()).toEqual(['src']);
      expect(completeMention('@vendor/out', 11, list)).toEqual({ text: '@vendor/out', cursor: 11, candidates: [] });
      const [listed] = await runReviewChecks(['list:vendor'], root);
      expect(JSON.stringify(listed)).not.toContain('outside-file');
      const [src] = await runReviewChecks(['list:src'], root);
      expect((src as unknown as { output: string }).output).toBe('a.ts\nb.ts');
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
