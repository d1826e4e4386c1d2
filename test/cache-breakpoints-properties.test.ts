/** Whatever the conversation, the breakpoints placed are ones the Messages API accepts, and nothing else changes. */
import fc from 'fast-check';
import type { ContentBlockParam, MessageCreateParamsBase, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { anthropicCacheProblems } from '../bench/prompt-cache.mjs';
import { withCacheBreakpoints } from '../src/providers/anthropic/cache-breakpoints.js';

const text = fc.string({ minLength: 1, maxLength: 3000 }).map((t): ContentBlockParam => ({ type: 'text', text: t.trim() ? t : `${t}x` }));
const thinking = fc.string({ maxLength: 200 }).map((t): ContentBlockParam => ({ type: 'thinking', thinking: t, signature: 'sig' }));
const toolUse = fc.nat(99).map((n): ContentBlockParam => ({ type: 'tool_use', id: `toolu_${n}`, name: 'echo', input: { v: n } }));
const toolResult = fc.tuple(fc.nat(99), fc.string({ maxLength: 4000 })).map(([n, out]): ContentBlockParam => ({ type: 'tool_result', tool_use_id: `toolu_${n}`, content: out || '(no output)' }));

const user = fc.oneof(fc.string({ minLength: 1, maxLength: 2000 }), fc.array(fc.oneof(text, toolResult), { minLength: 1, maxLength: 4 }));
const assistant = fc.tuple(fc.array(thinking, { maxLength: 2 }), fc.array(fc.oneof(text, toolUse), { minLength: 1, maxLength: 3 })).map(([t, rest]) => [...t, ...rest]);

const conversation = fc.array(fc.tuple(user, assistant), { minLength: 0, maxLength: 8 }).chain((pairs) =>
  user.map((last): MessageParam[] => [...pairs.flatMap(([u, a]): MessageParam[] => [{ role: 'user', content: u }, { role: 'assistant', content: a }]), { role: 'user', content: last }]),
);

const params = fc.record({
  model: fc.constantFrom('claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-5', 'claude-opus-4-7'),
  system: fc.option(fc.string({ minLength: 1, maxLength: 8000 }), { nil: undefined }),
  tools: fc.array(fc.string({ maxLength: 3000 }), { maxLength: 5 }).map((descriptions) => descriptions.map((description, i) => ({ name: `tool_${i}`, description, input_schema: { type: 'object' as const } }))),
  messages: conversation,
});

/** The request with every cache_control taken out, and string contents as the one text block they stand for. */
function unmarked(body: MessageCreateParamsBase): unknown {
  const plain = JSON.parse(JSON.stringify(body), (key, value) => (key === 'cache_control' ? undefined : value)) as MessageCreateParamsBase;
  const blocks = (content: unknown) => (typeof content === 'string' ? [{ type: 'text', text: content }] : content);
  return { ...plain, system: blocks(plain.system), messages: plain.messages.map((message) => ({ ...message, content: blocks(message.content) })) };
}

describe('withCacheBreakpoints', () => {
  it('places at most four breakpoints the API accepts (TTL order, never on thinking or empty text), on any conversation, changing nothing else', () => {
    fc.assert(
      fc.property(params, fc.constantFrom('5m' as const, '1h' as const), (input, ttl) => {
        const base: MessageCreateParamsBase = { model: input.model, max_tokens: 100, messages: input.messages };
        if (input.tools.length) base.tools = input.tools;
        if (input.system) base.system = input.system;
        const out = withCacheBreakpoints(base, ttl);
        expect(anthropicCacheProblems(out as unknown as Record<string, unknown>)).toEqual([]);
        expect(unmarked(out)).toEqual(unmarked(base));
      }),
      { numRuns: 300 },
    );
  });
});
