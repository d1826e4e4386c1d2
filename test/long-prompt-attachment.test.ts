/**
 * Issue 41 point 3: a huge prompt is not sent whole (and resent with every request): it goes as an
 * attachment — its head and tail in the message under a note naming the output id, the whole kept for
 * read_output — and the user is told what happened.
 */
import { describe, expect, it } from 'vitest';
import { attachLongPrompt, PastedTexts, PASTE_ATTACH_CHARS, textSize } from '../src/cli/prompt/pasted-text.js';
import { createReadOutputTool } from '../src/context/read-output.js';
import { MemoryOutputStore } from '../src/tools/output-store.js';

/** A 2,701-line log of about 1.5 MB, as the trial pasted. */
const bigLog = Array.from({ length: 2_701 }, (_, i) => `2026-12-06T10:${String(i % 60).padStart(2, '0')} line ${i + 1} ${'x'.repeat(540)}`).join('\n');

describe('a long prompt goes as an attachment', () => {
  it('keeps the head and the tail in the message and the whole for read_output, which pages it back', async () => {
    const store = new MemoryOutputStore();
    const prompt = `Why does this fail?\n${bigLog}\nWhat is the first error?`;
    const attached = await attachLongPrompt(prompt, store);
    const id = /id="(out_[0-9a-f]{12})"/.exec(attached.text)![1]!;
    expect(attached.text.startsWith(`<pasted-text size="2,703 lines, 1.5 MB" id="${id}">\nWhy does this fail?\n`)).toBe(true);
    expect(attached.text.endsWith('\nWhat is the first error?\n</pasted-text>')).toBe(true);
    expect(attached.text).toContain(`omitted of ${prompt.length.toLocaleString('en-US')}; full output saved as output id ${id}; call read_output to see more]`);
    expect(attached.text.length).toBeLessThan(8_300);
    expect(attached.note).toBe(`the prompt (2,703 lines, 1.5 MB) went as an attachment: its first and last characters in the message, the whole for read_output (id ${id})`);
    expect(await store.get(id)).toBe(prompt);
    const read = createReadOutputTool(store);
    const page = await read.execute({ id, offset: 100_000, limit: 200 }, { workspace: '/tmp', signal: new AbortController().signal });
    expect(String(typeof page === 'string' ? page : page.output)).toBe(`[output ${id}: characters 100000–100200 of ${prompt.length}; more from offset 100200]\n${prompt.slice(100_000, 100_200)}`);
  });

  it('leaves a prompt up to the threshold as it is', async () => {
    const store = new MemoryOutputStore();
    const prompt = 'y'.repeat(PASTE_ATTACH_CHARS);
    expect(await attachLongPrompt(prompt, store)).toEqual({ text: prompt });
    expect(store.size).toBe(0);
  });

  it('shows a long paste in the interactive prompt as a chip with its size, expanded (and attached) only when sent', async () => {
    const pastes = new PastedTexts();
    expect(pastes.paste('one line')).toBeUndefined();
    const chip = pastes.paste(bigLog)!;
    expect(chip).toBe('[pasted text #1: 2,701 lines, 1.5 MB]');
    expect(textSize('a\nb')).toBe('2 lines, 3 bytes');
    const store = new MemoryOutputStore();
    const sent = await pastes.prepare(`look at ${chip} please`, store);
    expect(sent.text).toMatch(/^<pasted-text size="2,701 lines, 1\.5 MB" id="out_[0-9a-f]{12}">\nlook at 2026/);
    expect(await store.get(/id="(out_[0-9a-f]{12})"/.exec(sent.text)![1]!)).toBe(`look at ${bigLog} please`);
    // A chip the user deleted sends nothing.
    expect((await pastes.prepare('never mind', store)).text).toBe('never mind');
  });
});
