import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileTools } from '../src/tools/coding/file-tools.js';
import type { FileToolOptions } from '../src/tools/coding/shared/file-tool-options.js';
import { FileReadTracker } from '../src/tools/coding/shared/read-tracker.js';
import { ToolRegistry } from '../src/tools/registry.js';
import type { Authorize, AuthorizeRequest } from '../src/contracts/tool.js';

let base: string;
let ws: string;
let previews: AuthorizeRequest['preview'][];
let registry: ToolRegistry;

const approveAll: Authorize = async (request) => {
  previews.push(request.preview);
  return { allowed: true };
};

function useTools(options: FileToolOptions = {}, tracker = new FileReadTracker()): void {
  registry = new ToolRegistry(createFileTools(options, tracker));
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'vibe-files-')));
  ws = join(base, 'ws');
  await mkdir(ws);
  previews = [];
  useTools();
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function call(name: string, args: object, authorize: Authorize = approveAll) {
  return registry.invoke({ id: 'call_1', name, arguments: JSON.stringify(args) }, { workspace: ws, authorize });
}

const read = (args: object) => call('read_file', args);
const write = (path: string, content: string) => call('write_file', { path, content });
const edit = (args: object) => call('edit_file', args);
const put = (name: string, content: string | Buffer) => writeFile(join(ws, name), content);
const disk = (name: string) => readFile(join(ws, name), 'utf8');

describe('the three tools', () => {
  it('have short descriptions and the right permission facts', () => {
    const [readTool, writeTool, editTool] = createFileTools();
    expect([readTool?.name, writeTool?.name, editTool?.name]).toEqual(['read_file', 'write_file', 'edit_file']);
    expect([readTool?.readOnly, readTool?.needsApproval]).toEqual([true, false]);
    expect([writeTool?.needsApproval, editTool?.needsApproval]).toEqual([true, true]);
    for (const tool of [readTool, writeTool, editTool]) expect(tool?.description.split(/\s+/).length).toBeLessThanOrEqual(60);
  });
});

describe('read_file', () => {
  it('numbers lines like cat -n and states size and line count', async () => {
    await put('a.txt', 'first\nsecond\n');
    const result = await read({ path: 'a.txt' });
    expect(result).toMatchObject({ isError: false, status: 'ok' });
    expect(result.content).toBe('     1\tfirst\n     2\tsecond\n[a.txt: 2 lines, 13 bytes. Showing lines 1-2.]');
  });

  it('reads from offset for limit lines and says how to read further', async () => {
    await put('n.txt', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'));
    const result = await read({ path: 'n.txt', offset: 4, limit: 3 });
    expect(result.content.split('\n').slice(0, 3)).toEqual(['     4\tline 4', '     5\tline 5', '     6\tline 6']);
    expect(result.content).toContain('[n.txt: 10 lines, 70 bytes. Showing lines 4-6; to read further, use offset=7.]');
    expect((await read({ path: 'n.txt', offset: 11 })).content).toBe('offset=11 is past the end of n.txt, which has 10 lines.');
  });

  it('caps a 100,000-line file at 2000 lines', async () => {
    await put('huge.txt', Array.from({ length: 100_000 }, (_, i) => String(i % 10)).join('\n') + '\n');
    const result = await read({ path: 'huge.txt' });
    const lines = result.content.split('\n');
    expect(lines).toHaveLength(2001);
    expect(lines[1999]).toBe('  2000\t9');
    expect(lines[2000]).toBe('[huge.txt: 100000 lines, 200,000 bytes (195.3 KB). Showing lines 1-2000; to read further, use offset=2001.]');
    const next = await read({ path: 'huge.txt', offset: 99_999 });
    expect(next.content).toBe(' 99999\t8\n100000\t9\n[huge.txt: 100000 lines, 200,000 bytes (195.3 KB). Showing lines 99999-100000.]');
  });

  it('stops before the output cap on wide lines and says where to continue', async () => {
    await put('wide.txt', Array.from({ length: 500 }, () => 'x'.repeat(120)).join('\n'));
    const result = await read({ path: 'wide.txt' });
    expect(result.content.length).toBeLessThan(26_000);
    const shown = result.content.split('\n').length - 1;
    expect(result.content).toContain(`Showing lines 1-${shown} (output is limited to 25,000 characters); to read further, use offset=${shown + 1}.`);
  });

  it('cuts lines over 2000 characters and says so', async () => {
    await put('long.txt', `${'y'.repeat(5000)}\nshort\n`);
    const result = await read({ path: 'long.txt' });
    const [first, second] = result.content.split('\n');
    expect(first).toBe(`     1\t${'y'.repeat(2000)}… [line cut: 5000 characters]`);
    expect(second).toBe('     2\tshort');
    expect(result.content).toContain('1 line over 2000 characters cut.');
  });

  it('shows CRLF and BOM files without the CRs or the BOM', async () => {
    await put('win.txt', '\uFEFFone\r\ntwo\r\n');
    expect((await read({ path: 'win.txt' })).content).toBe('     1\tone\n     2\ttwo\n[win.txt: 2 lines, 13 bytes. Showing lines 1-2.]');
  });

  it('refuses binary files, giving type and size', async () => {
    await put('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    await put('blob.bin', Buffer.from('abc\0def'));
    await put('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const png = await read({ path: 'logo.png' });
    // A picture goes to the model as an image (test/images-cli.test.ts); this 12-byte one is only a signature.
    expect(png).toMatchObject({ isError: true, content: 'logo.png is a damaged PNG (its header gives no image size)' });
    expect((await read({ path: 'blob.bin' })).content).toContain('binary data (contains NUL bytes), 7 bytes');
    expect((await read({ path: 'latin1.txt' })).content).toContain('invalid UTF-8');
  });

  it('refuses a file whose invalid UTF-8 starts after the first 8 KB, so an edit cannot mangle it', async () => {
    await put('late.txt', Buffer.concat([Buffer.from('a'.repeat(9000)), Buffer.from([0xff, 0x0a])]));
    const refusal = 'late.txt is not a text file: invalid UTF-8 after the first 8 KB, 9,002 bytes (8.8 KB). The file tools handle UTF-8 text only.';
    expect((await read({ path: 'late.txt' })).content).toBe(refusal);
    expect((await edit({ path: 'late.txt', old_string: 'aaa', new_string: 'b', replace_all: true })).content).toBe(refusal);
  });

  it('refuses a directory and points to list_files', async () => {
    await mkdir(join(ws, 'src'));
    const result = await read({ path: 'src' });
    expect(result).toMatchObject({ isError: true, content: 'src is a directory, not a file. Use list_files to see what it contains.' });
  });

  it('refuses paths outside the workspace, symlinks out of it, and secrets', async () => {
    await writeFile(join(base, 'outside.txt'), 'private');
    await symlink(join(base, 'outside.txt'), join(ws, 'link.txt'));
    await put('.env', 'API_KEY=sk-123');
    const escape = await read({ path: '../outside.txt' });
    expect(escape.isError).toBe(true);
    expect(escape.content).toContain('outside the workspace');
    expect((await read({ path: 'link.txt' })).content).toContain(`resolves to ${join(base, 'outside.txt')}`);
    const secret = await read({ path: '.env' });
    expect(secret.content).toContain('looks like a secrets file');
    expect(secret.content).not.toContain('sk-123');
  });

  it('reads secrets and extra roots when the options allow them', async () => {
    await put('.env', 'A=1\n');
    await writeFile(join(base, 'shared.txt'), 'shared\n');
    useTools({ allowSecrets: true, extraRoots: [base] });
    expect((await read({ path: '.env' })).content).toContain('     1\tA=1');
    expect((await read({ path: join(base, 'shared.txt') })).content).toContain('     1\tshared');
  });

  it('rejects bad arguments with the registry message', async () => {
    const result = await read({ path: 'a.txt', offset: 0 });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Invalid arguments for read_file: offset: /);
  });
});

describe('write_file', () => {
  it('creates a new file and its parent folders', async () => {
    const result = await write('src/deep/new.ts', 'export const a = 1;\nexport const b = 2;\n');
    expect(result).toMatchObject({ isError: false, content: 'Created src/deep/new.ts (2 lines, 40 bytes).' });
    expect(await disk('src/deep/new.ts')).toBe('export const a = 1;\nexport const b = 2;\n');
    expect(previews).toHaveLength(1);
    expect(previews[0]?.summary).toBe('write src/deep/new.ts (new, 2 lines)');
    expect(previews[0]?.detail).toContain('+export const b = 2;');
  });

  it('previews only the first 40 lines of a long new file', async () => {
    await write('long.txt', Array.from({ length: 100 }, (_, i) => `row ${i + 1}`).join('\n') + '\n');
    const detail = previews[0]?.detail ?? '';
    expect(detail).toContain('+row 40\n');
    expect(detail).not.toContain('row 41');
    expect(detail).toMatch(/… 60 more lines\n$/);
  });

  it('overwrites, reporting line counts before and after, with a diff in the preview', async () => {
    await put('a.txt', 'one\ntwo\nthree\n');
    await read({ path: 'a.txt' });
    const result = await write('a.txt', 'only\n');
    expect(result.content).toBe('Overwrote a.txt (3 → 1 line, 5 bytes).');
    expect(await disk('a.txt')).toBe('only\n');
    expect(previews[0]?.summary).toBe('write a.txt (overwrite, 3→1 lines)');
    expect(previews[0]?.detail).toBe('--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,1 @@\n-one\n-two\n-three\n+only\n');
  });

  it('refuses to overwrite a file it has not read, or one that changed since, without asking', async () => {
    await put('notes.md', 'the user wrote this\n');
    const unread = await write('notes.md', 'replaced\n');
    expect(unread).toMatchObject({ status: 'error', isError: true });
    expect(unread.content).toContain('notes.md already exists (1 line) and has not been read in this session');
    expect(previews).toHaveLength(0);
    await read({ path: 'notes.md' });
    await put('notes.md', 'the user wrote this\nand then more\n');
    const changed = await write('notes.md', 'replaced\n');
    expect(changed.content).toContain('changed on disk since it was last read or written');
    expect(await disk('notes.md')).toBe('the user wrote this\nand then more\n');
    await read({ path: 'notes.md' });
    expect((await write('notes.md', 'replaced\n')).status).toBe('ok');
    // Its own write counts as seeing it: writing again needs no new read.
    expect((await write('notes.md', 'again\n')).status).toBe('ok');
    expect(await disk('notes.md')).toBe('again\n');
  });

  it('keeps the mode of an overwritten file', async () => {
    await put('run.sh', 'echo old\n');
    await chmod(join(ws, 'run.sh'), 0o754);
    await read({ path: 'run.sh' });
    expect((await write('run.sh', 'echo new\n')).status).toBe('ok');
    expect(await disk('run.sh')).toBe('echo new\n');
    expect((await stat(join(ws, 'run.sh'))).mode & 0o777).toBe(0o754);
    expect(await readdir(ws)).toEqual(['run.sh']);
  });

  it('refuses to create a file through a symlinked folder that leads outside', async () => {
    await mkdir(join(base, 'elsewhere'));
    await symlink(join(base, 'elsewhere'), join(ws, 'out'));
    const result = await write('out/new.txt', 'x');
    expect(result.content).toContain(`resolves to ${join(base, 'elsewhere', 'new.txt')}`);
    expect(await readdir(join(base, 'elsewhere'))).toEqual([]);
    expect(previews).toHaveLength(0);
  });

  it('refuses a directory, a path outside and a denied call', async () => {
    await mkdir(join(ws, 'dir'));
    expect((await write('dir', 'x')).content).toBe('dir is a directory; write_file needs a file path.');
    expect((await write('../escape.txt', 'x')).content).toContain('outside the workspace');
    const denied = await call('write_file', { path: 'no.txt', content: 'x' }, async () => ({ allowed: false, reason: 'not now' }));
    expect(denied).toMatchObject({ status: 'denied', content: 'Denied: not now' });
    expect(await readdir(ws)).toEqual(['dir']);
  });
});

describe('edit_file', () => {
  it('replaces exactly and returns a unified diff', async () => {
    await put('a.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const result = await edit({ path: 'a.ts', old_string: 'const b = 2;', new_string: 'const b = 20;' });
    expect(result.isError).toBe(false);
    expect(result.content).toBe(
      'Edited a.ts: 1 replacement at line 2.\n--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 20;\n const c = 3;\n',
    );
    expect(await disk('a.ts')).toBe('const a = 1;\nconst b = 20;\nconst c = 3;\n');
  });

  it('shows the same diff in the preview as in the result', async () => {
    await put('p.ts', 'a\nb\nc\nd\ne\nf\ng\n');
    const result = await edit({ path: 'p.ts', old_string: 'd\n', new_string: 'D\nD2\n' });
    expect(previews).toHaveLength(1);
    expect(previews[0]?.summary).toBe('edit p.ts (1 replacement)');
    expect(previews[0]?.detail).toMatch(/^--- a\/p.ts\n/);
    expect(result.content).toBe(`Edited p.ts: 1 replacement at line 4.\n${previews[0]?.detail}`);
  });

  it('fails in the preview, without asking, when old_string is absent; shows the closest lines and that the file changed', async () => {
    await put('s.py', 'def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n');
    await read({ path: 's.py' });
    await put('s.py', 'def total(items):\n    s = 0\n    for x in items:\n        s += x\n    return s\n');
    const result = await edit({ path: 's.py', old_string: 'def total(xs):\n    s = 0\n    for x in xs:', new_string: 'def total(xs):\n    s = 1\n    for x in xs:' });
    expect(previews).toHaveLength(0);
    expect(result.isError).toBe(true);
    expect(result.content).toBe(
      'old_string was not found in s.py. s.py has changed since you last read it: read it again before editing.\n' +
        'The closest match is lines 1-3 (83% similar):\n     1\tdef total(items):\n     2\t    s = 0\n     3\t    for x in items:',
    );
    expect(await disk('s.py')).toContain('def total(items)');
  });

  it('says when the file is unread or unchanged since read', async () => {
    await put('u.txt', 'alpha beta\n');
    const unread = await edit({ path: 'u.txt', old_string: 'alpha gamma', new_string: 'x' });
    expect(unread.content).toContain('You have not read u.txt in this session');
    await read({ path: 'u.txt' });
    const unchanged = await edit({ path: 'u.txt', old_string: 'alpha gamma', new_string: 'x' });
    expect(unchanged.content).toContain('u.txt has not changed since you last read it, so old_string differs from what you read.');
    expect(unchanged.content).toContain('     1\talpha beta');
  });

  it('counts its own edits as seen, so a later miss is not blamed on a change', async () => {
    await put('o.txt', 'one\n');
    await read({ path: 'o.txt' });
    await edit({ path: 'o.txt', old_string: 'one', new_string: 'two' });
    expect((await edit({ path: 'o.txt', old_string: 'three', new_string: 'x' })).content).toContain('has not changed since you last read it');
  });

  it('refuses an edit that a tolerance turns into no change', async () => {
    await put('same.txt', 'value  \n');
    const result = await edit({ path: 'same.txt', old_string: 'value\n', new_string: 'value  \n' });
    expect(result.content).toBe('new_string is the same as the text it would replace in same.txt (trailing whitespace ignored when matching), so the file would not change.');
  });

  it('writes a file with a 250-character name', async () => {
    const name = `${'n'.repeat(246)}.txt`;
    await put(name, 'old\n');
    expect((await edit({ path: name, old_string: 'old', new_string: 'new' })).isError).toBe(false);
    expect(await disk(name)).toBe('new\n');
  });

  it('lists at most 20 line numbers', async () => {
    await put('many.txt', 'x\n'.repeat(25));
    expect((await edit({ path: 'many.txt', old_string: 'x', new_string: 'y' })).content).toContain('at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 5 more.');
  });

  it('refuses an ambiguous old_string, naming the lines', async () => {
    await put('d.txt', 'x = 1\ny = 2\nx = 1\nz\nx = 1\n');
    const result = await edit({ path: 'd.txt', old_string: 'x = 1', new_string: 'x = 9' });
    expect(result.content).toBe(
      'old_string matches 3 places in d.txt, at lines 1, 3, 5. Include more surrounding lines in old_string to make it unique, or set replace_all to true to replace every one.',
    );
    const all = await edit({ path: 'd.txt', old_string: 'x = 1', new_string: 'x = 9', replace_all: true });
    expect(all.content).toMatch(/^Edited d.txt: 3 replacements at lines 1, 3, 5\./);
    expect(await disk('d.txt')).toBe('x = 9\ny = 2\nx = 9\nz\nx = 9\n');
  });

  it('forgives trailing whitespace and says so', async () => {
    await put('t.js', 'if (ok) {  \n  go();\n}\n');
    const result = await edit({ path: 't.js', old_string: 'if (ok) {\n  go();', new_string: 'if (ok) {\n  stop();' });
    expect(result.content).toMatch(/^Edited t.js: 1 replacement at line 1\. Matched with tolerance: trailing whitespace ignored when matching\./);
    expect(await disk('t.js')).toBe('if (ok) {\n  stop();\n}\n');
  });

  it('re-indents new_string when the indentation was wrong', async () => {
    await put('i.py', 'class A:\n    def f(self):\n        return 1\n');
    const result = await edit({ path: 'i.py', old_string: 'def f(self):\n    return 1', new_string: 'def f(self):\n    x = 1\n    return x' });
    expect(result.content).toContain('indentation differed; new_string was re-indented to the file');
    expect(await disk('i.py')).toBe('class A:\n    def f(self):\n        x = 1\n        return x\n');
  });

  it('matches straight quotes over curly ones', async () => {
    await put('q.md', 'He said “hello” twice.\n');
    const result = await edit({ path: 'q.md', old_string: 'said "hello"', new_string: 'said "goodbye"' });
    expect(result.content).toContain('curly/straight quotes ignored when matching');
    expect(await disk('q.md')).toBe('He said “goodbye” twice.\n');
  });

  it('keeps a CRLF file CRLF when old_string and new_string use LF', async () => {
    await put('w.txt', 'a\r\nb\r\nc\r\n');
    const result = await edit({ path: 'w.txt', old_string: 'a\nb\n', new_string: 'a\nB\nB2\n' });
    expect(result.content).toContain('CRLF line endings kept.');
    expect(await disk('w.txt')).toBe('a\r\nB\r\nB2\r\nc\r\n');
  });

  it('normalises CRLF in old_string and new_string to an LF file, and says so', async () => {
    await put('l.txt', 'a\nb\nc\n');
    const result = await edit({ path: 'l.txt', old_string: 'a\r\nb\r\n', new_string: 'a\r\nX\r\n' });
    expect(result.content).toContain("Matched with tolerance: old_string's CRLF line endings matched the file's LF.");
    expect(await disk('l.txt')).toBe('a\nX\nc\n');
  });

  it('leaves the other lines of a mixed line-ending file alone', async () => {
    await put('mix.txt', 'one\r\ntwo\nthree\r\n');
    await edit({ path: 'mix.txt', old_string: 'two', new_string: '2' });
    expect(await disk('mix.txt')).toBe('one\r\n2\nthree\r\n');
  });

  it('keeps a BOM and a missing final newline', async () => {
    await put('b.txt', '\uFEFFfirst\nlast');
    await edit({ path: 'b.txt', old_string: 'last', new_string: 'final' });
    expect(await readFile(join(ws, 'b.txt'))).toEqual(Buffer.from('\uFEFFfirst\nfinal'));
    const result = await edit({ path: 'b.txt', old_string: 'first\n', new_string: 'start\n' });
    expect(result.content).toContain('\\ No newline at end of file');
    expect(await readFile(join(ws, 'b.txt'))).toEqual(Buffer.from('\uFEFFstart\nfinal'));
  });

  it('keeps the mode and leaves no temporary file', async () => {
    await put('m.sh', 'echo a\n');
    await chmod(join(ws, 'm.sh'), 0o700);
    await edit({ path: 'm.sh', old_string: 'echo a', new_string: 'echo b' });
    expect((await stat(join(ws, 'm.sh'))).mode & 0o777).toBe(0o700);
    expect(await readdir(ws)).toEqual(['m.sh']);
  });

  it('leaves a read-only file alone, for edits and overwrites alike, without asking', async () => {
    await put('locked.txt', 'keep\n');
    await chmod(join(ws, 'locked.txt'), 0o444);
    const refusal = 'locked.txt is read-only (mode 0444), so it is left alone. Ask the user to make it writable if it should change.';
    expect(await edit({ path: 'locked.txt', old_string: 'keep', new_string: 'lose' })).toMatchObject({ isError: true, content: refusal });
    expect(await write('locked.txt', 'lose\n')).toMatchObject({ isError: true, content: refusal });
    expect(previews).toHaveLength(0);
    expect(await disk('locked.txt')).toBe('keep\n');
  });

  it('edits the target of a symlink inside the workspace and keeps the link', async () => {
    await put('real.txt', 'v1\n');
    await symlink('real.txt', join(ws, 'alias.txt'));
    await edit({ path: 'alias.txt', old_string: 'v1', new_string: 'v2' });
    expect(await disk('real.txt')).toBe('v2\n');
    expect(await realpath(join(ws, 'alias.txt'))).toBe(join(ws, 'real.txt'));
  });

  it('refuses identical strings, a missing file, and an empty old_string on a non-empty file', async () => {
    await put('e.txt', 'content\n');
    expect((await edit({ path: 'e.txt', old_string: 'content', new_string: 'content' })).content).toBe(
      'old_string and new_string are identical, so the edit would change nothing.',
    );
    expect((await edit({ path: 'e.txt', old_string: '', new_string: 'x' })).content).toContain('old_string is empty, but e.txt is not.');
    const missing = await edit({ path: 'nope.txt', old_string: 'a', new_string: 'b' });
    expect(missing.content).toBe('The file nope.txt does not exist. To create it, use write_file (or edit_file with an empty old_string).');
    expect(previews).toHaveLength(0);
  });

  it('creates a missing file from an empty old_string', async () => {
    const result = await edit({ path: 'new/file.txt', old_string: '', new_string: 'hello\n' });
    expect(result.content).toBe('Created new/file.txt.\n--- a/new/file.txt\n+++ b/new/file.txt\n@@ -0,0 +1,1 @@\n+hello\n');
    expect(previews[0]?.summary).toBe('edit new/file.txt (new file)');
    expect(await disk('new/file.txt')).toBe('hello\n');
  });

  it('refuses to edit a secrets file or a binary file', async () => {
    await put('id_rsa', 'KEY\n');
    await put('img.gif', Buffer.from('GIF89a\0\0'));
    expect((await edit({ path: 'id_rsa', old_string: 'KEY', new_string: 'X' })).content).toContain('looks like a secrets file');
    expect((await edit({ path: 'img.gif', old_string: 'GIF', new_string: 'X' })).content).toContain('GIF image');
    expect(await disk('id_rsa')).toBe('KEY\n');
  });
});
