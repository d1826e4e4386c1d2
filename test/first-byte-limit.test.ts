/**
 * Issue 41 point 2: a silent endpoint fails within the first-byte limit with a clear message and is
 * not retried; once the reply streams, only the idle limit between frames applies, so a slow model
 * that streams is never cut. The timer is driven by a fake clock (no waiting on the real one).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleTimer } from '../src/providers/shared/idle-timer.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const SECOND = 1000;

describe('the first-byte limit', () => {
  it('gives up on a server that sends nothing at all after the first-byte limit, not the idle one, and says so', () => {
    const controller = new AbortController();
    const timer = new IdleTimer(300 * SECOND, controller, 60 * SECOND);
    timer.touch(); // the request goes out
    vi.advanceTimersByTime(59 * SECOND);
    expect(controller.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1 * SECOND);
    expect(controller.signal.aborted).toBe(true);
    expect(timer.expired).toBe(true);
    const error = timer.error('openai', false);
    expect(error.message).toBe(
      'openai: the server accepted the connection but sent nothing for 60 s (the first-byte limit); gave up waiting. Is the endpoint right, and is the model loaded? A server that needs longer before its first byte: VIBE_FIRST_BYTE_TIMEOUT=<seconds> or --first-byte-timeout <seconds>.',
    );
    expect(error.retryable).toBe(false);
    expect(timer.error('openai', true).message).toContain('answered the request but sent no part of the reply for 60 s');
  });

  it('never cuts a slow model that streams: after the first byte only the gap between frames counts', () => {
    const controller = new AbortController();
    const timer = new IdleTimer(300 * SECOND, controller, 60 * SECOND);
    timer.touch();
    vi.advanceTimersByTime(55 * SECOND); // a local model reading a long prompt
    timer.touch(); // its first token
    // Ten minutes of slow tokens, 4 minutes apart at worst: far past the first-byte limit, never past the idle one.
    for (const gap of [240, 120, 200, 30, 10]) {
      vi.advanceTimersByTime(gap * SECOND);
      expect(controller.signal.aborted).toBe(false);
      timer.touch();
    }
    timer.finish();
    timer.stop();
    expect(controller.signal.aborted).toBe(false);
  });

  it('after the first byte a stall is still the idle limit and still retried as a cut stream', () => {
    const controller = new AbortController();
    const timer = new IdleTimer(300 * SECOND, controller, 60 * SECOND);
    timer.touch();
    timer.touch();
    vi.advanceTimersByTime(299 * SECOND);
    expect(controller.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1 * SECOND);
    expect(controller.signal.aborted).toBe(true);
    const error = timer.error('openai', true);
    expect(error.message).toBe('openai: the stream stalled (nothing received for 300 s); gave up waiting.');
    expect(error.retryable).toBe(true);
  });

  it('without a first-byte limit (a library user who set none) the idle limit covers the first byte as before', () => {
    const controller = new AbortController();
    const timer = new IdleTimer(300 * SECOND, controller);
    timer.touch();
    vi.advanceTimersByTime(299 * SECOND);
    expect(controller.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1 * SECOND);
    expect(timer.error('openai', false).message).toBe('openai: the server accepted the request but sent nothing for 300 s; gave up waiting.');
  });
});
