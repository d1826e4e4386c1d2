import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatRequestBody } from './support/chat-server.js';
import { bigOutput, isSummaryRequest, runContextSession } from './support/context-session.js';
import { defineTool } from '../src/tools/define-tool.js';
import { z } from 'zod';

/** A tool whose n-th output has the generated session's n-th size. */
function sizedOutputs(sizes: number[]) {
  return defineTool({
    name: 'read_file',
    description: 'Read a file (test stand-in).',
    parameters: z.object({ n: z.number().int() }),
    readOnly: true,
    async execute({ n }) {
      return bigOutput(n, sizes[n] ?? 100);
    },
  });
}

const asSent = (body: ChatRequestBody) => body.messages.map((message) => JSON.stringify(message));

describe('the context policy keeps the prompt prefix between rewrite points', () => {
  it('sends each request as the previous one plus new messages, except at a recorded rewrite point or compaction; the tool list never changes', async () => {
    const seen = { rewrites: 0, extensions: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 50, max: 24_000 }), { minLength: 4, maxLength: 30 }),
        fc.constantFrom(8_192, 16_384, 32_768),
        async (sizes, contextWindow) => {
          let turns = 0;
          const { server, events } = await runContextSession(
            (body) => {
              if (isSummaryRequest(body)) return { text: '## Goal\nRead the files.\n## Open items\nKeep reading.' };
              turns++;
              return turns <= sizes.length ? { toolCalls: [{ name: 'read_file', arguments: { n: turns - 1 } }] } : { text: 'done' };
            },
            { tools: [sizedOutputs(sizes)], policy: { contextWindow }, agent: { maxTurns: sizes.length + 5 } },
          );
          expect(server.violations).toEqual([]);
          const rewritten = new Set(events.filter((e) => e.type === 'context_rewrite' || e.type === 'compaction').map((e) => (e as { turn: number }).turn));
          seen.rewrites += rewritten.size;
          const requests = server.requests;
          expect(requests).toHaveLength(sizes.length + 1);
          for (let i = 1; i < requests.length; i++) {
            expect(JSON.stringify(requests[i]!.tools)).toBe(JSON.stringify(requests[0]!.tools));
            const turn = i + 1;
            if (rewritten.has(turn)) continue;
            seen.extensions++;
            const before = asSent(requests[i - 1]!);
            expect(asSent(requests[i]!).slice(0, before.length)).toEqual(before);
          }
          // Every request between rewrite points was named a hit (no `why`), every rewrite's request a miss naming it.
          for (const usage of events.filter((e) => e.type === 'usage')) {
            const why = usage.type === 'usage' ? usage.cache?.why : undefined;
            if (rewritten.has(usage.turn)) expect(why).toMatch(/stubbed at a rewrite point|compaction|history shortened/);
            else expect(why).toBeUndefined();
          }
        },
      ),
      { numRuns: 12 },
    );
    // The generated sessions reached rewrite points, and grew at the end between them.
    expect(seen.rewrites).toBeGreaterThan(0);
    expect(seen.extensions).toBeGreaterThan(seen.rewrites);
  }, 120_000);
});
