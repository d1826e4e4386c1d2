import { describe, expect, it } from 'vitest';
import { blockedPortOf } from '../src/providers/shared/blocked-ports.js';
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
    const slowDns = connectionError('openai', new Error('Connection error.', { cause: fetchFailed({ code: 'EAI_AGAIN', hostname: 'api.openai.com' }) }));
    expect(slowDns).toMatchObject({ kind: 'network', retryable: true, message: 'openai: could not connect to api.openai.com (EAI_AGAIN).' });
  });

  it('a host name that does not resolve (ENOTFOUND) is named and not retried: the name is wrong, waiting will not mend it', async () => {
    const real = await fetch('http://no-such-host.invalid/v1').then(
      () => undefined,
      (error: unknown) => error,
    );
    const dns = connectionError('openai', new Error('Connection error.', { cause: real }));
    expect(dns).toMatchObject({ kind: 'network', retryable: false });
    expect(dns.message).toBe('openai: could not connect (ENOTFOUND): the host no-such-host.invalid does not resolve. Check the base URL (a typo in the host name?) and your DNS.');
  });
});

describe('a port fetch refuses', () => {
  it('is not retried, and the message says why and what to do', async () => {
    // The real error undici gives for a "bad port" (nothing needs to listen: fetch refuses before connecting).
    const refused = await fetch('http://127.0.0.1:6000/v1/chat/completions').then(
      () => undefined,
      (error: unknown) => error,
    );
    const error = connectionError('openai', new Error('Connection error.', { cause: refused }));
    expect(error).toMatchObject({ kind: 'network', retryable: false });
    expect(error.message).toMatch(/^openai: could not connect \(bad port\)\. Node's fetch refuses to connect to this port .*run the server on another port/);
  });
});

describe('blockedPortOf', () => {
  it('names the ports fetch refuses and no others', () => {
    expect(blockedPortOf(new URL('http://127.0.0.1:6000/v1'))).toBe(6000);
    expect(blockedPortOf(new URL('http://localhost:10080'))).toBe(10080);
    expect(blockedPortOf(new URL('https://example.com:6667/'))).toBe(6667);
    for (const usable of ['http://127.0.0.1:11434/v1', 'http://127.0.0.1:8080', 'https://api.openai.com/v1', 'http://127.0.0.1:80/v1']) {
      expect(blockedPortOf(new URL(usable))).toBeUndefined();
    }
  });
});
