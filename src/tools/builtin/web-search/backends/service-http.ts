import type { SearchHit } from './search-request.js';
import { ByteBudgetError, readTextWithin } from '../../../../contracts/byte-budget.js';

const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** A service's JSON answer, or an Error whose message names the service and what it said. */
export async function requestJson(service: string, url: URL, init: { method?: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown; signal?: AbortSignal | undefined }): Promise<unknown> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { accept: 'application/json', ...init.headers, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  // Counted as it arrives: a service that sends without end is cut off at the limit, not read whole first.
  const text = await readTextWithin(response, MAX_RESPONSE_BYTES, service).catch((error: unknown) => {
    throw error instanceof ByteBudgetError ? new Error(`${service} answered with more than ${MAX_RESPONSE_BYTES} bytes; stopped reading.`) : error;
  });
  if (!response.ok) throw new Error(`${service} answered HTTP ${response.status}: ${text.slice(0, 300)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${service} answered with something that is not JSON.`);
  }
}

/** The array at `field` of a JSON object, or none. */
export function arrayAt(body: unknown, ...path: string[]): Array<Record<string, unknown>> {
  let value = body;
  for (const key of path) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return Array.isArray(value) ? value.filter((item): item is Record<string, unknown> => !!item && typeof item === 'object') : [];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Markup stripped, entities read and whitespace folded: a title or snippet is one line of plain text. */
export function plain(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (entity, name: string) => {
      const code = name[0] !== '#' ? undefined : name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      if (code === undefined) return ENTITIES[name.toLowerCase()] ?? entity;
      return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

export function hit(title: unknown, url: unknown, snippet: unknown): SearchHit {
  return { title: plain(title), url: typeof url === 'string' ? url.trim() : '', snippet: plain(snippet) };
}

/** A keyed service's key from the agent's environment, or an Error naming the variable. */
export function keyFrom(env: Record<string, string | undefined>, variable: string, service: string): string {
  const key = env[variable];
  if (!key) throw new Error(`${service} needs an API key in ${variable}.`);
  return key;
}
