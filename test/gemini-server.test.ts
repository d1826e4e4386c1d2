import { afterEach, describe, expect, it } from 'vitest';
import { startGeminiServer, type GeminiServer } from './support/gemini-server.js';

// The checker must catch what Gemini rejects, or the provider tests prove nothing.
const servers: GeminiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function post(server: GeminiServer, body: unknown, method = 'generateContent') {
  const response = await fetch(`${server.url}/v1beta/models/gemini-2.5-flash:${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': 'k' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

const user = (text: string) => ({ role: 'user', parts: [{ text }] });
const call = (name: string, extra: Record<string, unknown> = {}) => ({ functionCall: { name, args: {} }, ...extra });
const answer = (name: string, response: unknown) => ({ functionResponse: { name, response } });

describe('the Gemini test server rejects what Gemini rejects', () => {
  it.each([
    ['a role other than user/model', { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, /role is "assistant"/],
    ['a functionResponse that is not an object', { contents: [user('q'), { role: 'model', parts: [call('f')] }, { role: 'user', parts: [answer('f', 'plain text')] }] }, /not an object/],
    ['fewer responses than calls', { contents: [user('q'), { role: 'model', parts: [call('f'), call('g')] }, { role: 'user', parts: [answer('f', { output: '' })] }] }, /answered by functionResponses \[f\]/],
    ['responses under other names', { contents: [user('q'), { role: 'model', parts: [call('f')] }, { role: 'user', parts: [answer('g', { output: '' })] }] }, /answered by functionResponses \[g\]/],
    ['empty parts', { contents: [{ role: 'user', parts: [] }] }, /parts must not be empty/],
    [
      'a schema with JSON-Schema-only keywords',
      { contents: [user('q')], tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'object', additionalProperties: false, properties: { a: { type: 'string', const: 'x' } } } }] }] },
      /Unknown name "additionalProperties"[\s\S]*Unknown name "const"/,
    ],
    ['a function name Gemini refuses', { contents: [user('q')], tools: [{ functionDeclarations: [{ name: '9lives' }] }] }, /does not match/],
  ])('%s', async (_label, body, message) => {
    const server = await startGeminiServer([{ text: 'unused' }]);
    servers.push(server);
    const response = await post(server, body);
    expect(response.status).toBe(400);
    expect(server.violations.join('\n')).toMatch(message);
  });

  it('a thoughtSignature that does not come back on its part', async () => {
    const server = await startGeminiServer([{ reasoning: 'think', toolCalls: [{ name: 'f', arguments: {} }] }, { text: 'unused' }]);
    servers.push(server);
    const first = await post(server, { contents: [user('q')] });
    expect(JSON.parse(first.text).candidates[0].content.parts[1].thoughtSignature).toBe('sig_1');
    const second = await post(server, { contents: [user('q'), { role: 'model', parts: [call('f')] }, { role: 'user', parts: [answer('f', { output: 'ok' })] }] });
    expect(second.status).toBe(400);
    expect(server.violations).toEqual(['request 2: thoughtSignature sig_1 was not sent back']);
  });

  it('streams only with alt=sse, and accepts a well-formed request', async () => {
    const server = await startGeminiServer([{ text: 'fine' }]);
    servers.push(server);
    const response = await post(server, { contents: [user('q')] }, 'streamGenerateContent?alt=sse');
    expect(response.status).toBe(200);
    expect(response.text).toMatch(/^data: \{"candidates"/);
    expect(server.violations).toEqual([]);
  });
});
