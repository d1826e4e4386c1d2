import type { SearchHit } from './search-request.js';

const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** A service's JSON answer, or an Error whose message names the service and what it said. */
export async function requestJson(service: string, url: URL, init: { method?: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown; signal?: AbortSignal | undefined }): Promise<unknown> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { accept: 'application/json', ...init.headers, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  const text = await response.text();
  if (text.length > MAX_RESPONSE_BYTES) throw new Error(`${service} answered with more than ${MAX_RESPONSE_BYTES} bytes.`);
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

/** Markup stripped and whitespace folded: a title or snippet is one line of plain text. */
export function plain(value: unknown): string {
  return typeof value === 'string' ? value.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim() : '';
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
