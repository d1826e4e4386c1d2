import { describe, expect, it } from 'vitest';
import { connectionError } from '../src/providers/shared/connection-error.js';

const fetchFailed = (cause: object) => new TypeError('fetch failed', { cause });

describe('connectionError', () => {
  it('a refused connection on this machine is not retried: nothing is listening there', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const error = connectionError('ollama', new Error('Connection error.', { cause: fetchFailed({ code: 'ECONNREFUSED', address, port: 11434 }) }));
      expect(error).toMatchObject({ kind: 'network', retryable: false });
      expect(error.message).toBe(`ollama: could not connect (ECONNREFUSED). Nothing is listening on ${address}:11434: start the server (for Ollama: ollama serve) or check the base URL.`);
    }
  });

  it('a refused or failed connection to another machine stays retryable (it may be a blip)', () => {
    const remote = connectionError('openai', new Error('Connection error.', { cause: fetchFailed({ code: 'ECONNREFUSED', address: '203.0.113.7', port: 443 }) }));
    expect(remote).toMatchObject({ kind: 'network', retryable: true, message: 'openai: could not connect (ECONNREFUSED).' });
    const dns = connectionError('openai', new Error('Connection error.', { cause: fetchFailed({ code: 'ENOTFOUND' }) }));
    expect(dns).toMatchObject({ kind: 'network', retryable: true, message: 'openai: could not connect (ENOTFOUND).' });
  });
});
