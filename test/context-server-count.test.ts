import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../src/tools/define-tool.js';
import { tokenizerLoaded } from '../src/context/token-count.js';
import { ofType } from './support/harness.js';
import { runContextSession, wireTokens } from './support/context-session.js';

// A file of its own: the tokenizer is module state, and no other test in this process may load it first.
const noteTool = defineTool({
  name: 'note',
  description: 'Returns a short note.',
  parameters: z.object({ n: z.number().int() }),
  readOnly: true,
  async execute({ n }) {
    return `note ${n}: nothing new here.`;
  },
});

describe('deciding whether to compact without a tokenizer', () => {
  it('uses the server\'s plausible count of the last request plus the bytes added since: 40 rounds past the byte bound load no tokenizer and compact nothing', async () => {
    let turns = 0;
    const thinking = 'Checked the next note; the parser keeps its edge cases and the tests still pass. '.repeat(3);
    const { result, events, server, policy } = await runContextSession(
      (body) => {
        turns++;
        // The server counts what it got exactly (o200k, as an OpenAI server would).
        const usage = { inputTokens: wireTokens(body) };
        return turns <= 40 ? { text: thinking, toolCalls: [{ name: 'note', arguments: { n: turns } }], usage } : { text: 'done', usage };
      },
      { tools: [noteTool], policy: { contextWindow: 16_384 }, agent: { maxTurns: 50 } },
    );
    expect(server.violations).toEqual([]);
    expect(result.stopReason).toBe('answered');
    const settings = policy.settings('test-model');
    const last = server.requests.at(-1)!;
    // The byte bound alone could not decide: the history's bytes are past the compaction point...
    expect(JSON.stringify(last.messages).length).toBeGreaterThan(settings.compactAt);
    // ...while its true size is far under it, which the server's counts showed.
    expect(wireTokens(last)).toBeLessThan(settings.compactAt / 2);
    expect(ofType(events, 'compaction')).toEqual([]);
    expect(ofType(events, 'context_warning')).toEqual([]);
    expect(tokenizerLoaded()).toBe(false);
  });
});
