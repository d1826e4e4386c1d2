import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { attachMentionedFiles, MAX_ATTACHED_CHARS, MAX_GLOB_FILES, withAttachments } from '../src/mentions/attach-mentions.js';
import { capNoteOf } from '../src/tools/cap-output.js';
import { createFileTools } from '../src/tools/coding/file-tools.js';
import { createSearchTools } from '../src/tools/coding/search-tools.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { createPermissionPolicy } from '../src/permissions/permission-policy.js';
import { writePng } from './support/image-fixtures.js';

const workspace = mkdtempSync(join(tmpdir(), 'vibe-mentions-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
mkdirSync(join(workspace, 'many'));
for (let i = 0; i < 30; i++) writeFileSync(join(workspace, 'many', `f${String(i).padStart(2, '0')}.txt`), `${'y'.repeat(3000)}\n`.repeat(8));

const run = (tools = new ToolRegistry([...createFileTools(), ...createSearchTools()])) => ({ tools, workspace, signal: new AbortController().signal });

describe('attachMentionedFiles', () => {
  it(`a glob reads its first ${MAX_GLOB_FILES} files and lists the rest; past ${MAX_ATTACHED_CHARS} characters the middle is stored whole for read_output`, async () => {
    const mention = run();
    const attached = await attachMentionedFiles('all of @many/*.txt', mention);
    if (!attached.ok) throw new Error(attached.reason);
    expect(attached.attached).toEqual([{ mention: '@many/*.txt', what: `30 files; the first ${MAX_GLOB_FILES} read, the rest listed` }]);
    const section = attached.section!;
    expect(section).toContain('many/f29.txt\n</glob>');
    const note = capNoteOf(`${section}`)!;
    expect(note).toBeDefined();
    const whole = (await mention.tools.outputs.get(note.id))!;
    expect(whole.length).toBe(note.chars);
    expect(whole.match(/<file path=/g)).toHaveLength(MAX_GLOB_FILES);
    expect(whole).not.toContain('<file path="many/f20.txt"');
    expect(section.length).toBeLessThan(MAX_ATTACHED_CHARS + 300);
    expect(withAttachments('all of @many/*.txt', section).startsWith('all of @many/*.txt\n\n<attachments>\n')).toBe(true);
  });

  it('without read_file in the run, a mention is refused with the reason', async () => {
    writeFileSync(join(workspace, 'a.txt'), 'a\n');
    const attached = await attachMentionedFiles('@a.txt', run(new ToolRegistry(createSearchTools())));
    expect(attached).toEqual({ ok: false, reason: '@a.txt: the read_file tool is not enabled in this run, so mentions cannot be attached. Nothing was sent.' });
  });

  it('a picture (by its bytes) goes as read_file\'s image, a .png holding text as text; a glob that matches nothing stays text', async () => {
    const png = await writePng(join(workspace, 'diagram'), 16, 8);
    writeFileSync(join(workspace, 'fake.png'), 'not really\n');
    const attached = await attachMentionedFiles('@diagram, @fake.png and @nothing/**/*.zz', run());
    if (!attached.ok) throw new Error(attached.reason);
    expect(attached.images.map((image) => [image.mediaType, image.width, image.height, image.data])).toEqual([['image/png', 16, 8, png.toString('base64')]]);
    expect(attached.attached.map((note) => note.mention)).toEqual(['@diagram', '@fake.png']);
    expect(attached.attached[0]!.what).toMatch(/^PNG image, 16×8, \d+ bytes; attached as an image\.$/);
    expect(attached.section).toBe('<attachments>\n<file path="fake.png" via="read_file">\n     1\tnot really\n[fake.png: 1 line, 11 bytes. Showing lines 1-1.]\n</file>\n</attachments>');
  });

  it('a picture for a model known to take text only is refused with read_file\'s reason', async () => {
    await writePng(join(workspace, 'shot.png'), 4, 4);
    const attached = await attachMentionedFiles('see @shot.png', run(new ToolRegistry([...createFileTools({ acceptsImages: false }), ...createSearchTools()])));
    expect(attached.ok).toBe(false);
    if (!attached.ok) expect(attached.reason).toMatch(/^@shot\.png: shot\.png is a PNG image .*does not accept images.* Nothing was sent\.$/);
  });
  it('a glob leaves out a file a deny rule refuses and says why; a link to a folder lists the folder', async () => {
    mkdirSync(join(workspace, 'conf'));
    writeFileSync(join(workspace, 'conf', 'a.txt'), 'open\n');
    writeFileSync(join(workspace, 'conf', 'b.txt'), 'closed\n');
    symlinkSync(join(workspace, 'conf'), join(workspace, 'conf-link'));
    const authorize = createPermissionPolicy({ mode: 'ask', deny: ['read_file(conf/b.txt)'], protectedDirs: [] });
    const attached = await attachMentionedFiles('@conf/*.txt and @conf-link', { ...run(), authorize });
    if (!attached.ok) throw new Error(attached.reason);
    expect(attached.attached).toEqual([
      { mention: '@conf/*.txt', what: '2 files; 1 refused' },
      { mention: '@conf-link', what: 'folder, 2 files' },
    ]);
    expect(attached.section).toContain('<refused path="conf/b.txt" via="read_file">\nDenied: the rule "read_file(conf/b.txt)" in permissions.deny forbids this call.\n</refused>');
    expect(attached.section).toContain('<file path="conf/a.txt" via="read_file">\n     1\topen\n');
    expect(attached.section).not.toContain('closed');
  });
});

describe('attachMentionedFiles through a link out of the workspace', () => {
  const outside = mkdtempSync(join(tmpdir(), 'vibe-mentions-outside-'));
  afterAll(() => rmSync(outside, { recursive: true, force: true }));
  writeFileSync(join(outside, 'x'), 'OUTSIDE-TEXT\n');
  writeFileSync(join(outside, 'y.txt'), 'OUTSIDE-TOO\n');
  symlinkSync(outside, join(workspace, 'vendor'));
  writeFileSync(join(workspace, 'plain.txt'), 'inside\n');
  symlinkSync(join(outside, 'x'), join(workspace, 'x-link'));

  it.each(['@vendor/x', '@vendor/', '@vendor', '@vendor/*.txt', '@x-link', '@vendor/nothing-there'])('%s attaches no text from outside, and the prompt says why', async (mention) => {
    const attached = await attachMentionedFiles(`look at ${mention} and @plain.txt`, run());
    const shown = JSON.stringify(attached);
    expect(shown).not.toContain('OUTSIDE-TEXT');
    expect(shown).not.toContain('OUTSIDE-TOO');
    expect(shown).not.toContain('y.txt');
  });
});
