import { describe, expect, it } from 'vitest';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { EncodedBodies } from '../src/providers/openai/encoded-body.js';

describe('the Chat Completions body, each message encoded once', () => {
  it('is JSON.stringify(body) byte for byte, round after round, while earlier messages are not encoded again', () => {
    const encodings = new Map<string, number>();
    // toJSON runs once each time JSON.stringify meets the message: a count of its encodings.
    const counted = (id: string, message: ChatCompletionMessageParam) =>
      ({
        ...message,
        toJSON() {
          encodings.set(id, (encodings.get(id) ?? 0) + 1);
          const { toJSON: _, ...plain } = this as Record<string, unknown>;
          return plain;
        },
      }) as unknown as ChatCompletionMessageParam;
    const bodies = new EncodedBodies();
    const history: ChatCompletionMessageParam[] = [counted('system', { role: 'system', content: 'Be brief. "messages":0 \u2028 é' })];
    for (let round = 1; round <= 30; round++) {
      history.push(counted(`user${round}`, { role: 'user', content: `question ${round} with "quotes" and \\ and \n` }));
      history.push(counted(`assistant${round}`, { role: 'assistant', content: null, tool_calls: [{ id: `c${round}`, type: 'function', function: { name: 'grep', arguments: '{"pattern":"messages"}' } }] }));
      history.push(counted(`tool${round}`, { role: 'tool', tool_call_id: `c${round}`, content: `result ${round}` }));
      const body = { model: 'gpt-"x"', messages: [...history], temperature: undefined, tools: [{ type: 'function' as const, function: { name: 'grep', parameters: { type: 'object', properties: { messages: { type: 'number', default: 0 } } } } }], stream: true };
      const before = new Map(encodings);
      const encoded = bodies.encode(body);
      for (const [id, count] of encodings) expect(count - (before.get(id) ?? 0), `${id} in round ${round}`).toBe(before.has(id) ? 0 : 1);
      expect(encoded).toBe(JSON.stringify(body));
    }
  });

  it('a history that changed before its end (a rewrite point) is encoded again from the change', () => {
    const bodies = new EncodedBodies();
    const first: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
    ];
    expect(bodies.encode({ messages: first })).toBe(JSON.stringify({ messages: first }));
    const rewritten: ChatCompletionMessageParam[] = [first[0]!, { role: 'assistant', content: 'stubbed' }, { role: 'user', content: 'c' }];
    expect(bodies.encode({ messages: rewritten })).toBe(JSON.stringify({ messages: rewritten }));
  });
});
