import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { checkAccess } from '../src/server/access.js';
import { livePageHtml } from '../src/server/live-page.js';
import { LIVE_PAGE_SCRIPT } from '../src/server/live-page-script.js';
import { sessionState } from '../src/contracts/session-state.js';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
const rules = { token: 'secret-token', allowOrigins: ['https://app.example'], ownOrigins: ['http://127.0.0.1:4317'] };
const bearer = { authorization: 'Bearer secret-token' };

describe('the live page (unit)', () => {
  it('is one page whose script parses and holds no closing script tag inside', () => {
    expect(() => new Function(LIVE_PAGE_SCRIPT)).not.toThrow();
    const html = livePageHtml();
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).toContain('const sessionState = function');
  });

  it('the server\'s own origin may call with the token (no CORS headers needed); another origin never', () => {
    expect(checkAccess(request({ ...bearer, origin: 'http://127.0.0.1:4317' }), rules, false)).toEqual({ ok: true });
    expect(checkAccess(request({ origin: 'http://127.0.0.1:4317' }), rules, false)).toMatchObject({ ok: false, status: 401 });
    expect(checkAccess(request({ ...bearer, origin: 'http://localhost:9999' }), rules, false)).toMatchObject({ ok: false, status: 403 });
    expect(checkAccess(request({ ...bearer, origin: 'null' }), rules, false)).toMatchObject({ ok: false, status: 403 });
    expect(checkAccess(request({ ...bearer, origin: 'https://app.example' }), rules, false)).toEqual({ ok: true, origin: 'https://app.example' });
    expect(checkAccess(request({ origin: 'http://attacker.example' }), rules, true)).toMatchObject({ ok: false, status: 403 });
  });

  it('says the states agents says', () => {
    const info = (status: string, queued = 0, pending: unknown[] = []) => ({ status, queued, pendingApprovals: pending });
    expect(sessionState(info('running', 0, [{}]), undefined, undefined)).toBe('needs you');
    expect(sessionState(info('running'), undefined, undefined)).toBe('working');
    expect(sessionState(info('idle', 1), 'answered', 'stop')).toBe('working');
    expect(sessionState(info('idle'), 'provider_error', 'stop')).toBe('failed');
    expect(sessionState(info('idle'), 'aborted', 'stop')).toBe('stopped');
    expect(sessionState(info('idle'), 'answered', 'interrupted')).toBe('stopped');
    expect(sessionState(info('closed'), 'answered', 'stop')).toBe('stopped');
    expect(sessionState(info('idle'), 'answered', 'stop')).toBe('done');
  });
});
