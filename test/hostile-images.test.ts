import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectImage } from '../src/images/detect-image.js';
import { DECODE_LIMITS, IMAGE_LIMITS } from '../src/images/image-limits.js';
import { imageFromBytes } from '../src/images/load-image.js';
import { createFileTools } from '../src/tools/coding/file-tools.js';
import { ofType, runScenario } from './support/harness.js';

type Format = 'png' | 'jpeg' | 'gif' | 'webp-vp8x' | 'webp-vp8l' | 'webp-vp8';

/** The largest width and height each header can express. */
const MAX_SIDE: Record<Format, number> = { png: 2 ** 32 - 1, jpeg: 65535, gif: 65535, 'webp-vp8x': 2 ** 24, 'webp-vp8l': 2 ** 14, 'webp-vp8': 2 ** 14 - 1 };

/** A whole file of the format whose header declares `width`×`height` (the pixel data is a stub). */
function header(format: Format, width: number, height: number): Buffer {
  switch (format) {
    case 'png': {
      const ihdr = Buffer.alloc(25);
      ihdr.writeUInt32BE(13, 0);
      ihdr.write('IHDR', 4);
      ihdr.writeUInt32BE(width, 8);
      ihdr.writeUInt32BE(height, 12);
      ihdr.set([8, 6, 0, 0, 0], 16);
      const idat = Buffer.from([0, 0, 0, 2, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0, 0, 0, 0]);
      const iend = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
      return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, idat, Buffer.alloc(16), iend]);
    }
    case 'jpeg': {
      const app0 = Buffer.from([0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
      const sof = Buffer.from([0xff, 0xc0, 0, 17, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
      return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
    }
    case 'gif': {
      const screen = Buffer.alloc(13);
      screen.write('GIF89a', 0);
      screen.writeUInt16LE(width, 6);
      screen.writeUInt16LE(height, 8);
      const frame = Buffer.alloc(10);
      frame[0] = 0x2c;
      frame.writeUInt16LE(width, 5);
      frame.writeUInt16LE(height, 7);
      return Buffer.concat([screen, frame, Buffer.from([2, 2, 0x4c, 0x01, 0, 0x3b])]);
    }
    case 'webp-vp8x': {
      const b = Buffer.alloc(30);
      b.write('RIFF', 0);
      b.writeUInt32LE(22, 4);
      b.write('WEBPVP8X', 8);
      b.writeUInt32LE(10, 16);
      b.writeUIntLE(Math.max(0, width - 1), 24, 3);
      b.writeUIntLE(Math.max(0, height - 1), 27, 3);
      return b;
    }
    case 'webp-vp8l': {
      const b = Buffer.alloc(30);
      b.write('RIFF', 0);
      b.writeUInt32LE(22, 4);
      b.write('WEBPVP8L', 8);
      b.writeUInt32LE(10, 16);
      b[20] = 0x2f;
      b.writeUInt32LE((Math.max(0, width - 1) | (Math.max(0, height - 1) << 14)) >>> 0, 21);
      return b;
    }
    case 'webp-vp8': {
      const b = Buffer.alloc(30);
      b.write('RIFF', 0);
      b.writeUInt32LE(22, 4);
      b.write('WEBPVP8 ', 8);
      b.writeUInt32LE(10, 16);
      b.set([0x9d, 0x01, 0x2a], 23);
      b.writeUInt16LE(width, 26);
      b.writeUInt16LE(height, 28);
      return b;
    }
  }
}

/** The size a header of the format actually carries, once its encoding has clipped or offset it. */
function expressed(format: Format, side: number): number {
  return format.startsWith('webp-vp8') && format !== 'webp-vp8' ? Math.max(1, side) : side;
}

const FORMATS = Object.keys(MAX_SIDE) as Format[];
const sideOf = (format: Format) => fc.oneof(fc.constantFrom(0, 1, MAX_SIDE[format]), fc.integer({ min: 0, max: MAX_SIDE[format] }));
const withinDecodeLimits = (w: number, h: number) => w > 0 && h > 0 && w <= DECODE_LIMITS.maxEdge && h <= DECODE_LIMITS.maxEdge && w * h <= DECODE_LIMITS.maxPixels;

let ws: string;
beforeAll(async () => {
  ws = await realpath(await mkdtemp(join(tmpdir(), 'vibe-hostile-images-')));
});
afterAll(() => rm(ws, { recursive: true, force: true }));

describe('image sizes are checked from the header, before any decoder runs', () => {
  it('property: any declared size of any format is accepted only within the decode limits, and the reason says why', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FORMATS), fc.nat(), fc.nat(), (format, a, b) => {
        const width = a % (MAX_SIDE[format] + 1);
        const height = b % (MAX_SIDE[format] + 1);
        const inspected = inspectImage(header(format, width, height));
        const [w, h] = [expressed(format, width), expressed(format, height)];
        expect(inspected.ok).toBe(withinDecodeLimits(w, h));
        if (!inspected.ok && w > 0 && h > 0) expect(inspected.reason).toContain(`declares ${w}×${h} px`);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.constantFrom(...FORMATS).chain((format) => fc.tuple(fc.constant(format), sideOf(format), sideOf(format))), ([format, width, height]) => {
        expect(inspectImage(header(format, width, height)).ok).toBe(withinDecodeLimits(expressed(format, width), expressed(format, height)));
      }),
      { numRuns: 500 },
    );
  });

  it('property: a header cut anywhere is refused with a reason, never a throw', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FORMATS), fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 5000 }), fc.nat(), (format, width, height, cut) => {
        const whole = header(format, width, height);
        const inspected = inspectImage(whole.subarray(0, cut % whole.length));
        expect(inspected.ok).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('a GIF whose first frame is larger than its small logical screen is refused too (the decoder allocates the frame)', () => {
    const gif = header('gif', 64, 64);
    gif.writeUInt16LE(60000, 13 + 5);
    gif.writeUInt16LE(60000, 13 + 7);
    expect(inspectImage(gif)).toMatchObject({ ok: false, reason: expect.stringContaining('declares 60000×60000 px') });
  });

  it('huge and absurd declarations of every format are refused in milliseconds, memory staying low', async () => {
    const before = process.memoryUsage().rss;
    const started = performance.now();
    for (const format of FORMATS) {
      for (const [width, height] of [[30000, 30000], [MAX_SIDE[format], MAX_SIDE[format]], [2147483647, 2147483647]] as const) {
        if (width > MAX_SIDE[format]) continue;
        const loaded = await imageFromBytes(header(format, width, height), IMAGE_LIMITS.anthropic, `huge.${format}`);
        expect(loaded).toMatchObject({ ok: false, reason: expect.stringMatching(new RegExp(`^huge\\.${format} declares \\d+×\\d+ px .*scale it down first$`)) });
      }
    }
    expect(performance.now() - started).toBeLessThan(2000);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('read_file of a 30000×30000 PNG the repository ships is a tool error; the run goes on', async () => {
    await writeFile(join(ws, 'bomb.png'), header('png', 30000, 30000));
    const before = process.memoryUsage().rss;
    const { result, events, server } = await runScenario(
      [{ toolCalls: [{ name: 'read_file', arguments: { path: 'bomb.png' } }] }, { text: 'That image is too large to look at.' }],
      { toolList: createFileTools(), workspace: ws },
    );
    expect(result.answer).toBe('That image is too large to look at.');
    expect(ofType(events, 'tool_call_end').map((end) => end.status)).toEqual(['error']);
    const toolMessage = server.requests[1]!.messages.find((m) => m.role === 'tool')!;
    expect(String(toolMessage.content)).toContain('bomb.png declares 30000×30000 px (900 megapixels)');
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });
});
