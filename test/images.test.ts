import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Message } from '../src/contracts/messages.js';
import { imageTypeOf, inspectImage } from '../src/images/detect-image.js';
import { IMAGE_LIMITS } from '../src/images/image-limits.js';
import { imageTokens } from '../src/images/image-tokens.js';
import { compactHistory } from '../src/context/compact-history.js';
import { ScriptedProvider } from '../src/providers/scripted.js';
import { loadImageFile } from '../src/images/load-image.js';
import { toAnthropicConversation } from '../src/providers/anthropic/convert.js';
import { toGeminiContents } from '../src/providers/google/convert.js';
import { toOpenAIMessages } from '../src/providers/openai/convert.js';
import { imagesRefusedBy } from '../src/providers/image-capability.js';
import { ToolWireMap } from '../src/providers/shared/tool-ids.js';
import { checkProtocol } from './support/chat-server.js';
import { checkAnthropicProtocol } from './support/anthropic-protocol-check.js';
import { writePng } from './support/image-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'vibe-images-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('image detection', () => {
  it('knows PNG, JPEG, GIF and WebP by their bytes, whatever the name, and reads their size', async () => {
    const png = await writePng(join(dir, 'really-a-png.jpg'), 64, 48);
    expect(imageTypeOf(png)).toBe('image/png');
    expect(inspectImage(png)).toEqual({ ok: true, facts: { mediaType: 'image/png', width: 64, height: 48 } });
    const { Jimp } = await import('jimp');
    const jpeg = await Jimp.fromBuffer(png).then((image) => image.getBuffer('image/jpeg'));
    expect(inspectImage(jpeg)).toEqual({ ok: true, facts: { mediaType: 'image/jpeg', width: 64, height: 48 } });
    const gif = await Jimp.fromBuffer(png).then((image) => image.getBuffer('image/gif'));
    expect(inspectImage(gif)).toEqual({ ok: true, facts: { mediaType: 'image/gif', width: 64, height: 48 } });
    // A minimal lossless WebP header (VP8L): 'RIFF' size 'WEBP' 'VP8L' chunk with 14-bit sizes.
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0);
    webp.writeUInt32LE(22, 4);
    webp.write('WEBPVP8L', 8);
    webp.writeUInt32LE(10, 16);
    webp[20] = 0x2f;
    webp.writeUInt32LE((64 - 1) | ((48 - 1) << 14), 21);
    expect(inspectImage(webp)).toEqual({ ok: true, facts: { mediaType: 'image/webp', width: 64, height: 48 } });
    expect(inspectImage(Buffer.from('not an image at all'))).toMatchObject({ ok: false, reason: expect.stringContaining('not a PNG, JPEG, GIF or WebP') });
  });

  it('refuses a truncated file with a reason naming it', async () => {
    const png = await writePng(join(dir, 'whole.png'), 32, 32);
    writeFileSync(join(dir, 'cut.png'), png.subarray(0, png.length - 20));
    const loaded = await loadImageFile(join(dir, 'cut.png'), IMAGE_LIMITS.anthropic, 'cut.png');
    expect(loaded).toEqual({ ok: false, reason: 'cut.png is a truncated or damaged PNG (it ends before the image does)' });
  });

  it('scales an image over the long-edge limit down to fit, keeping its format when that fits', async () => {
    await writePng(join(dir, 'wide.png'), 9000, 300);
    const loaded = await loadImageFile(join(dir, 'wide.png'), IMAGE_LIMITS.anthropic, 'wide.png');
    if (!loaded.ok) throw new Error(loaded.reason);
    expect(loaded.image.width).toBeLessThanOrEqual(IMAGE_LIMITS.anthropic.maxEdge);
    expect(loaded.resized?.from).toMatchObject({ width: 9000, height: 300 });
    expect(inspectImage(Buffer.from(loaded.image.data, 'base64'))).toMatchObject({ ok: true, facts: { width: loaded.image.width, height: loaded.image.height } });
  });
});

describe('image capability and tokens', () => {
  it('knows text-only endpoints and models; an unknown model may take images', () => {
    expect(imagesRefusedBy('deepseek', 'deepseek-chat')).toContain('does not accept images');
    expect(imagesRefusedBy('openrouter', 'deepseek/deepseek-chat')).toContain('takes text only');
    expect(imagesRefusedBy('openai', 'gpt-4o')).toBeUndefined();
    expect(imagesRefusedBy('ollama', 'some-local-model')).toBeUndefined();
  });

  it('estimates an image as the costliest provider would count it', () => {
    // Anthropic: 1000×1000/750 ≈ 1334; OpenAI: 768×768 → 4 tiles → 765; Gemini: 2×2 tiles → 1032.
    expect(imageTokens({ width: 1000, height: 1000 })).toBe(1334);
    expect(imageTokens({ width: 200, height: 200 })).toBe(258);
  });
});

describe('each provider carries images in its own shape, and the strict servers accept it', () => {
  const image = { mediaType: 'image/png' as const, data: '', sha256: 'x', width: 8, height: 8 };
  const history = async (): Promise<Message[]> => {
    const png = await writePng(join(dir, 'tiny.png'), 8, 8);
    const img = { ...image, data: png.toString('base64') };
    return [
      { role: 'user', content: 'what is this?', images: [img] },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.png"}' }] },
      { role: 'tool', toolCallId: 'c1', name: 'read_file', content: '[a.png: PNG image]', isError: false, images: [img] },
    ];
  };

  it('OpenAI: image_url data URLs in the user message; tool images follow the tool results in a user message', async () => {
    const messages = toOpenAIMessages(await history(), { provider: 'openai', model: 'gpt-4o', replayReasoning: false });
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(messages[0]!.content).toEqual([{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/png;base64,iVBOR/) } }]);
    expect(messages[2]!.content).toBe('[a.png: PNG image]');
    expect((messages[3]!.content as Array<{ type: string }>).map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(checkProtocol({ model: 'gpt-4o', messages: [...messages, { role: 'assistant', content: 'ok' }] } as never, [])).toEqual([]);
    // A malformed part is a violation (HTTP 400 from the server).
    const bad = [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,bm90IGEgcG5n' } }] }];
    expect(checkProtocol({ model: 'gpt-4o', messages: bad } as never, [])).toEqual([expect.stringContaining('does not match the provided media type')]);
  });

  it('Anthropic: image blocks in the user turn and inside the tool_result', async () => {
    const wire = toAnthropicConversation(await history(), { provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(wire.messages[0]!.content).toEqual([{ type: 'text', text: 'what is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: expect.stringMatching(/^iVBOR/) } }]);
    const result = (wire.messages[2]!.content as Array<{ type: string; content: Array<{ type: string }> }>)[0]!;
    expect(result.type).toBe('tool_result');
    expect(result.content.map((b) => b.type)).toEqual(['text', 'image']);
    const bad = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: (wire.messages[0]!.content as Array<{ source?: { data: string } }>)[1]!.source!.data } }] }] };
    expect(checkAnthropicProtocol(bad as never, { signatures: new Map(), redacted: new Set(), previous: undefined }).join('\n')).toContain('does not match the provided media type image/jpeg');
  });

  it('Gemini: inlineData parts in the user turn; tool images follow the functionResponse', async () => {
    const wire = toGeminiContents(await history(), { provider: 'google', model: 'gemini-2.5-flash', wire: new ToolWireMap({}) });
    expect(wire.contents[0]!.parts).toEqual([{ text: 'what is this?' }, { inlineData: { mimeType: 'image/png', data: expect.stringMatching(/^iVBOR/) } }]);
    expect(wire.contents[2]!.parts!.map((p) => Object.keys(p)[0])).toEqual(['functionResponse', 'inlineData']);
  });
});

describe('compaction and images', () => {
  it('names the images of the replaced turns to the summariser and in the note, never dropping one silently', async () => {
    const img = { mediaType: 'image/png' as const, data: 'iVBORw0KGgo=', sha256: 'a'.repeat(64), name: 'old-shot.png', width: 640, height: 480 };
    const provider = new ScriptedProvider([{ text: 'SUMMARY' }]);
    const history: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'look at this', images: [img] },
      { role: 'assistant', content: 'I see a chart. '.repeat(50), toolCalls: [] },
      { role: 'user', content: 'now something else' },
      { role: 'assistant', content: 'done', toolCalls: [] },
      { role: 'user', content: 'and the follow-up' },
    ];
    const { messages } = await compactHistory(history, { provider, model: 'm', keepRecentTokens: 10 });
    expect(JSON.stringify(provider.requests[0]!.messages)).toContain('[image: old-shot.png 640×480] (not carried over by the summary)');
    const note = messages.find((m) => m.role === 'user' && m.content.includes('SUMMARY'))!;
    expect(note.content).toContain('Images in them are no longer attached: [image: old-shot.png 640×480]');
  });
});
