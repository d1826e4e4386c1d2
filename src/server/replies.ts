import type { ServerResponse } from 'node:http';
import type { StreamLimits } from './event-stream.js';

export interface ServerLimits {
  /** Bytes of a request body. */
  body: number;
  /** Sessions open at once. */
  sessions: number;
  /** Event streams open at once. */
  streams: number;
  stream: StreamLimits;
}

export const DEFAULT_LIMITS: ServerLimits = { body: 1024 * 1024, sessions: 64, streams: 256, stream: { buffer: 1024, page: 256, heartbeatMs: 15_000 } };

/** A JSON reply (or an empty one), never cached or sniffed. */
export function reply(response: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent) return void response.end();
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, { ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers });
  response.end(text);
}

