import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/contracts/events.js';
import { run } from '../src/core/loop.js';
import { ProviderError } from '../src/contracts/provider-error.js';
import { ScriptedProvider } from '../src/providers/scripted.js';

const failing = (error: () => ProviderError) => () => {
  throw error();
};

async function retriesOf(provider: ScriptedProvider, retry: { maxRetries: number; baseDelayMs: number; maxDelayMs: number }) {
  const events: AgentEvent[] = [];
  const result = await run({ provider, model: 'm', input: 'x', retry }, (event) => events.push(event));
  return { result, retries: events.filter((event) => event.type === 'retry') };
}

describe('retry back-off', () => {
  it('doubles from the base delay with jitter in [half, whole], never over the cap', async () => {
    const serverError = failing(() => new ProviderError('server', 'HTTP 503'));
    const provider = new ScriptedProvider([serverError, serverError, serverError, serverError, serverError, { text: 'up again' }]);
    const { result, retries } = await retriesOf(provider, { maxRetries: 5, baseDelayMs: 4, maxDelayMs: 10 });
    expect(result.answer).toBe('up again');
    expect(retries.map((retry) => retry.attempt)).toEqual([1, 2, 3, 4, 5]);
    const ceilings = [4, 8, 10, 10, 10];
    retries.forEach((retry, index) => {
      expect(retry.delayMs).toBeLessThanOrEqual(ceilings[index]!);
      expect(retry.delayMs).toBeGreaterThanOrEqual(Math.floor(ceilings[index]! / 2));
    });
  });

  it("waits exactly the server's advised delay when it is within the cap, and does not retry past it", async () => {
    const provider = new ScriptedProvider([
      failing(() => new ProviderError('rate_limit', 'HTTP 429', { status: 429, retryAfterMs: 7 })),
      failing(() => new ProviderError('rate_limit', 'HTTP 429', { status: 429, retryAfterMs: 11 })),
    ]);
    const { result, retries } = await retriesOf(provider, { maxRetries: 5, baseDelayMs: 1, maxDelayMs: 10 });
    expect(retries.map((retry) => retry.delayMs)).toEqual([7]);
    expect(result.stopReason).toBe('provider_error');
    expect(result.error).toBe('HTTP 429 (not retried: the server asked to wait 11 ms, more than the 10 ms limit on retry waits)');
  });
});
