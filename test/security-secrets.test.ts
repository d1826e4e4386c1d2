/** Secrets: provider errors, the prompt history file, the output store on disk. */
import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../src/core/loop.js';
import { DirectoryOutputStore, outputIdFor } from '../src/tools/output-store.js';
import { AnthropicProvider } from '../src/providers/anthropic/anthropic-provider.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { startAnthropicServer } from './support/anthropic-server.js';
import { startChatServer } from './support/chat-server.js';
import { startGeminiServer } from './support/gemini-server.js';
import { GoogleProvider } from '../src/providers/google/google-provider.js';
import { InputHistory } from '../src/cli/tui/input-history.js';
import { collectSecrets, createRedactor } from '../src/session/redact.js';
import { tempLayouts } from './support/security-setup.js';

const setup = tempLayouts();

describe('provider errors never carry the API key', () => {
  const key = 'sk-live-0123456789abcdef';
  const echo = { error: { message: `Invalid credentials: Authorization: Bearer ${key}`, type: 'authentication_error' } };

  it('OpenAI-compatible: a 401 body echoing the Authorization header is redacted in the stop event', async () => {
    const server = await startChatServer([{ kind: 'http_error', status: 401, body: echo }]);
    try {
      const events: string[] = [];
      const result = await run({ provider: new OpenAIProvider({ apiKey: key, baseURL: server.url }), model: 'm', input: 'hi' }, (event) => events.push(JSON.stringify(event)));
      expect(result.stopReason).toBe('provider_error');
      expect(result.error).toContain('Invalid credentials: Authorization: Bearer [redacted]');
      expect(events.join('\n')).not.toContain(key);
    } finally {
      await server.close();
    }
  });

  it('Gemini: the same', async () => {
    const server = await startGeminiServer([{ kind: 'http_error', status: 403, body: { error: { code: 403, message: `API key ${key} is not valid`, status: 'PERMISSION_DENIED' } } }]);
    try {
      const result = await run({ provider: new GoogleProvider({ apiKey: key, baseURL: server.url }), model: 'gemini-2.5-flash', input: 'hi' });
      expect(result.stopReason).toBe('provider_error');
      expect(result.error).toContain('[redacted]');
      expect(result.error).not.toContain(key);
    } finally {
      await server.close();
    }
  });

  it('Anthropic: the same', async () => {
    const server = await startAnthropicServer([{ kind: 'http_error', status: 401, body: { type: 'error', ...echo } }]);
    try {
      const result = await run({ provider: new AnthropicProvider({ apiKey: key, baseURL: server.url }), model: 'claude-x', input: 'hi' });
      expect(result.stopReason).toBe('provider_error');
      expect(result.error).toContain('[redacted]');
      expect(result.error).not.toContain(key);
    } finally {
      await server.close();
    }
  });
});

describe('the prompt history file', () => {
  it('keeps a pasted key out of the file (redacted like sessions), and the file is 0600', () => {
    const { root } = setup();
    const path = join(root, 'data', 'history', 'ws.jsonl');
    const redact = createRedactor(collectSecrets({ OPENAI_API_KEY: 'sk-pasted-1234567890' }));
    const history = new InputHistory(path, redact);
    history.add('use the key sk-pasted-1234567890 for the test');
    expect(history.entries).toEqual(['use the key sk-pasted-1234567890 for the test']);
    const file = readFileSync(path, 'utf8');
    expect(file).toContain('use the key [redacted] for the test');
    expect(file).not.toContain('sk-pasted');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'data', 'history')).mode & 0o777).toBe(0o700);
  });
});

describe('the output store on disk', () => {
  it('DirectoryOutputStore keeps its directory 0700 and its files 0600', async () => {
    const { root } = setup();
    const store = new DirectoryOutputStore(join(root, 'outputs'));
    const id = outputIdFor('full output');
    await store.put(id, 'full output');
    expect(await store.get(id)).toBe('full output');
    expect(statSync(join(root, 'outputs')).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, 'outputs', `${id}.txt`)).mode & 0o777).toBe(0o600);
  });
});
