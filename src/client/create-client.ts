import createFetchClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './api-types.js';

export type ServerEvent = components['schemas']['Event'];
export type SessionInfo = components['schemas']['Session'];
export type VibeClient = Client<paths>;

export interface ClientOptions {
  /** The server's address, e.g. http://127.0.0.1:4317 */
  baseUrl: string;
  /** The bearer token `vibe-agent serve` printed (or the content of its --token-file). */
  token: string;
  fetch?: typeof globalThis.fetch;
}

/**
 * A typed client for `vibe-agent serve` (openapi-fetch over the generated api-types.ts): each route
 * is `client.GET('/v1/sessions/{id}', { params: { path: { id } } })`, checked against the document.
 */
export function createVibeClient(options: ClientOptions): VibeClient {
  return createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.token}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
