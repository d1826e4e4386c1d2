import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../src/contracts/messages.js';
import { compactHistory } from '../src/context/compact-history.js';
import { shrinkToolOutputs } from '../src/context/shrink-outputs.js';
import { latestUserRequest } from '../src/context/turn-units.js';
import { ScriptedProvider } from '../src/providers/scripted.js';

/** Random valid histories: user messages and assistant turns with 0–3 calls, each answered in order. */
const historyArbitrary = fc
  .array(
    fc.oneof(
      fc.record({ kind: fc.constant('user' as const), text: fc.string({ maxLength: 40 }) }),
      fc.record({ kind: fc.constant('turn' as const), calls: fc.integer({ min: 0, max: 3 }), size: fc.integer({ min: 0, max: 9_000 }) }),
    ),
    { minLength: 1, maxLength: 30 },
  )
  .map((steps) => {
    const messages: Message[] = [{ role: 'system', content: 'system' }];
    let id = 0;
    for (const step of steps) {
      if (step.kind === 'user') {
        messages.push({ role: 'user', content: `ask ${step.text}` });
        continue;
      }
      const calls = Array.from({ length: step.calls }, () => ({ id: `c${++id}`, name: 'read', arguments: `{"n":${id}}` }));
      messages.push({ role: 'assistant', content: step.calls ? '' : `answer ${id}`, toolCalls: calls });
      for (const call of calls) messages.push({ role: 'tool', toolCallId: call.id, name: 'read', content: `${call.id} `.repeat(Math.ceil(step.size / 4)), isError: false });
    }
    return messages;
  });

function pairsIntact(messages: Message[]): boolean {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === 'assistant') {
      const answers = messages.slice(i + 1, i + 1 + message.toolCalls.length);
      if (answers.some((m, k) => m.role !== 'tool' || m.toolCallId !== message.toolCalls[k]!.id)) return false;
    }
    if (message.role === 'tool' && !['assistant', 'tool'].includes(messages[i - 1]?.role ?? '')) return false;
  }
  return true;
}

describe('context properties over random histories', () => {
  it('shrinking is idempotent and maps messages one to one', async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary, fc.integer({ min: 100, max: 6_000 }), async (history, keep) => {
        const settings = { maxToolResultChars: 4_000, keepToolOutputTokens: keep };
        const once = await shrinkToolOutputs(history, settings);
        const twice = await shrinkToolOutputs(once.messages, settings);
        expect(twice.messages).toEqual(once.messages);
        expect(once.messages.map((m) => m.role)).toEqual(history.map((m) => m.role));
      }),
      { numRuns: 60 },
    );
  });

  it('compaction keeps every call with its results, the system message and the latest request, and replays from its event', async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary, fc.integer({ min: 0, max: 5_000 }), async (history, keepRecentTokens) => {
        const provider = new ScriptedProvider([{ text: 'summary' }]);
        const { messages, event } = await compactHistory(history, { provider, model: 'm', keepRecentTokens });
        expect(pairsIntact(messages)).toBe(true);
        expect(messages[0]).toEqual(history[0]);
        const latest = latestUserRequest(history);
        if (latest >= 0) expect(messages).toContainEqual(history[latest]);
        expect(messages.at(-1)).toEqual(history.at(-1));
        if (event) {
          const replay = [...history];
          replay.splice(event.replaced!.from, event.replaced!.count, ...event.inserted!);
          expect(replay).toEqual(messages);
        } else {
          expect(messages).toEqual(history);
        }
      }),
      { numRuns: 80 },
    );
  });
});
