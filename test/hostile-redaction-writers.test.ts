/**
 * One redaction for everything written (issue 34, class 5): `--json` across streamed pieces (a key
 * split over text_delta and reasoning_delta lines never comes out in parts, and only what could
 * begin a key is held back) and the checkpoint log's prompts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/contracts/events.js';
import { createJsonLinesRenderer } from '../src/cli/display/json-lines.js';
import { CheckpointLog } from '../src/checkpoints/checkpoint-log.js';
import { createRedactor, REDACTED } from '../src/session/redact.js';
import { StreamRedactor } from '../src/session/stream-redactor.js';
import { EventLog } from '../src/conversation/event-log.js';
import type { ConversationEvent } from '../src/conversation/conversation-types.js';
import { redactingWriter } from '../src/secrets/redacting-writer.js';

const home = mkdtempSync(join(tmpdir(), 'vibe-redaction-writers-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const secretArb = fc.stringMatching(/^sk-[A-Za-z0-9-]{8,30}$/);
const plainText = fc.stringMatching(/^[A-Za-z0-9 :,.-]{0,40}$/);

/** The text cut at the given points. */
function pieces(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    out.push(text.slice(from, point));
    from = Math.max(from, point);
  }
  return out.filter((piece) => piece !== '');
}

describe('--json across streamed pieces', () => {
  it('property: a key repeated in text and reasoning, cut anywhere, never appears in any line nor joined across lines', () => {
    fc.assert(
      fc.property(secretArb, fc.array(plainText, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 30 }), (secret, around, textCuts, thinkingCuts) => {
        const text = around.join(secret);
        const thinking = `${secret}${around.join(' ')}${secret}`;
        const written: string[] = [];
        const render = createJsonLinesRenderer({ write: (line: string) => written.push(line) }, secret);
        const a = pieces(text, textCuts);
        const b = pieces(thinking, thinkingCuts);
        for (let i = 0; i < Math.max(a.length, b.length); i++) {
          if (b[i] !== undefined) render({ type: 'reasoning_delta', turn: 1, text: b[i]! });
          if (a[i] !== undefined) render({ type: 'text_delta', turn: 1, text: a[i]! });
        }
        render({ type: 'stop', reason: 'answered' } as AgentEvent);
        const events = written.map((line) => JSON.parse(line) as AgentEvent & { text?: string });
        const joined = (type: string) => events.filter((event) => event.type === type).map((event) => event.text).join('');
        expect(written.join('')).not.toContain(secret);
        expect(joined('text_delta')).toBe(createRedactor([secret])(text));
        expect(joined('reasoning_delta')).toBe(createRedactor([secret])(thinking));
        expect(events.at(-1)?.type).toBe('stop');
      }),
      { numRuns: 200 },
    );
  });

  it('property: only what could begin a key is held back, never more than the longest key less one', () => {
    fc.assert(
      fc.property(fc.array(secretArb, { minLength: 1, maxLength: 3 }), plainText, (secrets, text) => {
        const streams = new StreamRedactor(secrets);
        const out = streams.push('s', text);
        const held = text.length - out.length;
        expect(held).toBeLessThan(Math.max(...secrets.map((secret) => secret.length)));
        expect(out + (streams.flush()[0]?.[1] ?? '')).toBe(text);
        if (held > 0) expect(secrets.some((secret) => secret.startsWith(text.slice(text.length - held)))).toBe(true);
      }),
    );
  });
});

describe('the checkpoint log', () => {
  it('property: a key in a prompt, from the environment or --api-key, is redacted in checkpoints/<ws>/sessions/<id>.jsonl', () => {
    fc.assert(
      fc.property(secretArb, plainText, plainText, fc.boolean(), (secret, before, after, fromEnv) => {
        const env = { XDG_DATA_HOME: join(home, 'data'), XDG_CACHE_HOME: join(home, 'cache'), HOME: home, ...(fromEnv ? { MY_SERVICE_TOKEN: secret } : {}) };
        const argv = process.argv;
        if (!fromEnv) process.argv = [...argv, '--api-key', secret];
        try {
          const log = new CheckpointLog(join(home, 'ws'), `s-${Math.random().toString(36).slice(2)}`, env);
          log.add({ kind: 'turn', tree: 'a'.repeat(40), tooLarge: [], run: 1, turn: 1, prompt: `${before}${secret}${after}` });
          const written = readFileSync(log.path, 'utf8');
          expect(written).not.toContain(secret);
          expect(written).toContain(REDACTED);
          expect(log.read().checkpoints[0]?.prompt).toBe(`${before}${REDACTED}${after}`);
        } finally {
          process.argv = argv;
        }
      }),
      { numRuns: 30 },
    );
  });
});

describe('the conversation\'s event log (what a server\'s SSE clients, editors and every front end get)', () => {
  it('property: a key cut anywhere over text and reasoning deltas reaches no subscriber in parts; numbers stay consecutive; the text is the redacted whole', () => {
    fc.assert(
      fc.property(secretArb, fc.array(plainText, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 30 }), (secret, around, textCuts, thinkingCuts) => {
        const text = around.join(secret);
        const thinking = `${secret}${around.join(' ')}${secret}`;
        const log = new EventLog(() => undefined, (error) => { throw error; }, 7, [secret]);
        const seen: ConversationEvent[] = [];
        log.subscribe((event) => seen.push(event));
        const a = pieces(text, textCuts);
        const b = pieces(thinking, thinkingCuts);
        for (let i = 0; i < Math.max(a.length, b.length); i++) {
          if (b[i] !== undefined) log.publish({ type: 'reasoning_delta', turn: 1, text: b[i]! });
          if (a[i] !== undefined) log.publish({ type: 'text_delta', turn: 1, text: a[i]! });
        }
        log.publish({ type: 'stop', reason: 'answered' } as AgentEvent);
        expect(JSON.stringify(seen)).not.toContain(secret);
        expect(seen.map((event) => event.seq)).toEqual(seen.map((_, index) => 8 + index));
        const joined = (type: string) => seen.filter((event) => event.type === type).map((event) => (event as { text: string }).text).join('');
        expect(joined('text_delta')).toBe(createRedactor([secret])(text));
        expect(joined('reasoning_delta')).toBe(createRedactor([secret])(thinking));
        expect(seen.at(-1)?.type).toBe('stop');
      }),
      { numRuns: 200 },
    );
  });
});

describe('redactingWriter (one-shot stdout and stderr, under the renderer)', () => {
  it('property: a key cut over any writes never reaches the stream in parts, and the stream is the redacted whole', () => {
    fc.assert(
      fc.property(fc.array(secretArb, { minLength: 1, maxLength: 2 }), fc.array(plainText, { minLength: 2, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 30 }), (secrets, around, cuts) => {
        const text = around.join(secrets[0]!) + (secrets[1] ?? '');
        const written: string[] = [];
        const out = redactingWriter({ write: (piece: string) => written.push(piece), isTTY: false }, secrets);
        for (const piece of pieces(text, cuts)) out.write(piece);
        out.flush();
        for (const secret of secrets) expect(written.join('')).not.toContain(secret);
        expect(written.join('')).toBe(createRedactor(secrets)(text));
        expect(out.isTTY).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
