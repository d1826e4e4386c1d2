/**
 * The strict Messages API test server itself: each rule it enforces rejects a hand-written bad
 * request with HTTP 400 and records a violation, and a well-formed one passes. The adapter tests
 * lean on these checks, so they are proven here with raw HTTP, no SDK in between.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startAnthropicServer, type AnthropicServer, type AnthropicStep } from './support/anthropic-server.js';

const servers: AnthropicServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function post(server: AnthropicServer, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

async function server(script: AnthropicStep[] = [{ text: 'ok' }]) {
  const started = await startAnthropicServer(script);
  servers.push(started);
  return started;
}

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const use = (id: string) => ({ type: 'tool_use', id, name: 'echo', input: {} });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'out' });
const base = { model: 'claude-test', max_tokens: 100 };

describe('the Anthropic test server rejects what the API rejects', () => {
  it.each([
    ['max_tokens missing', { model: 'm', messages: [user('hi')] }, /max_tokens: field required/],
    ['a system-role message', { ...base, messages: [user('hi'), { role: 'system', content: 's' }] }, /system goes in the top-level system field/],
    ['an empty text block', { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: ' ' }] }] }, /text content blocks must be non-empty/],
    ['roles that do not alternate', { ...base, messages: [user('a'), user('b')] }, /roles must alternate/],
    ['an assistant first', { ...base, messages: [{ role: 'assistant', content: 'x' }, user('b')] }, /first message must use the "user" role/],
    ['an unanswered tool_use', { ...base, messages: [user('a'), { role: 'assistant', content: [use('t1')] }, user('b')] }, /tool_use ids were found without tool_result blocks immediately after: t1/],
    ['a tool_result with no tool_use', { ...base, messages: [user('a'), { role: 'assistant', content: 'x' }, { role: 'user', content: [result('t9')] }] }, /tool_result without matching tool_use/],
    ['results after text', { ...base, messages: [user('a'), { role: 'assistant', content: [use('t1')] }, { role: 'user', content: [{ type: 'text', text: 'b' }, result('t1')] }] }, /tool_result blocks must come first/],
    ['a forged thinking signature', { ...base, messages: [user('a'), { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 'forged' }, { type: 'text', text: 'x' }] }, user('b')] }, /invalid signature in thinking block/],
    ['a tool schema that is not an object', { ...base, messages: [user('a')], tools: [{ name: 't', input_schema: { type: 'string' } }] }, /input_schema: type must be "object"/],
    ['a thinking budget not below max_tokens', { ...base, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: [user('a')] }, /max_tokens must be greater than thinking.budget_tokens/],
  ])('rejects %s', async (_name, body, problem) => {
    const wire = await server();
    const response = await post(wire, body);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(wire.violations).toEqual([expect.stringMatching(problem)]);
  });

  it('accepts a well-formed tool round trip and answers with SSE events', async () => {
    const wire = await server([{ text: 'fine' }]);
    const response = await post(wire, {
      ...base,
      stream: true,
      system: 'sys',
      messages: [user('a'), { role: 'assistant', content: [{ type: 'text', text: 'calling' }, use('t1'), use('t2')] }, { role: 'user', content: [result('t2'), result('t1'), { type: 'text', text: 'more' }] }],
    });
    expect(response.status).toBe(200);
    expect(wire.violations).toEqual([]);
    const events = [...response.text.matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
    expect(events[0]).toBe('message_start');
    expect(events.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(events).toContain('content_block_delta');
  });

  it('requires the calls it sent to come back unchanged, with their signed thinking when thinking is on', async () => {
    const wire = await server([{ reasoning: 'plan', toolCalls: [{ id: 't1', name: 'echo', arguments: { v: 'x' } }] }, { text: 'ok' }]);
    const thinking = { type: 'enabled', budget_tokens: 1024 };
    const first = await post(wire, { ...base, max_tokens: 4096, thinking, messages: [user('a')] });
    const reply = JSON.parse(first.text) as { content: Array<Record<string, unknown>> };
    expect(reply.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    const rewritten = { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'echo', input: { v: 'y' } }] };
    const second = await post(wire, { ...base, max_tokens: 4096, thinking, messages: [user('a'), rewritten, { role: 'user', content: [result('t1')] }] });
    expect(second.status).toBe(400);
    expect(wire.violations).toEqual([
      expect.stringMatching(/tool_use t1 was rewritten/),
      expect.stringMatching(/must start with the thinking blocks of that response/),
    ]);
  });
});
