import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface AccessRules {
  token: string;
  /** Origins (`https://app.example`) whose pages may call the server; any other request with an Origin header is refused. */
  allowOrigins: readonly string[];
  /** The server's own origins (its live page's): their requests are same-origin and need no CORS headers; the token is still required. */
  ownOrigins?: readonly string[];
}

export type AccessVerdict = { ok: true; origin?: string } | { ok: false; status: 401 | 403; error: string };

/**
 * Who may use the server: a request carrying an Origin header (a web page's) is refused unless
 * that origin is named or is the server's own (its live page, which holds the token), so another
 * page the user visits cannot drive the agent; every route but the open ones needs the bearer
 * token, and every failure reads the same (no hint which part was wrong).
 */
export function checkAccess(request: IncomingMessage, rules: AccessRules, open: boolean): AccessVerdict {
  const origin = request.headers.origin;
  const own = origin !== undefined && (rules.ownOrigins ?? []).includes(origin);
  if (origin !== undefined && !own && !rules.allowOrigins.includes(origin)) return { ok: false, status: 403, error: 'requests from web pages are refused (Origin not allowed)' };
  if (!open && !tokenMatches(request.headers.authorization, rules.token)) return { ok: false, status: 401, error: 'unauthorized' };
  return origin === undefined || own ? { ok: true } : { ok: true, origin };
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (\S+)$/i.exec(header ?? '')?.[1] ?? '';
  // Digests of equal length: the comparison takes the same time whatever was sent.
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

const digest = (text: string) => createHash('sha256').update(text).digest();
