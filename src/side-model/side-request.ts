import { createHash } from 'node:crypto';
import { jsonText } from '../contracts/canonical-json.js';
import type { ModelRequest } from '../contracts/provider.js';

/**
 * One thing a side model is shown. Every item becomes one line of JSON in the request, so no text
 * inside an item (a command, a user's words) can end its line and pose as another item: a newline
 * or a quote in it is escaped by the encoding, never taken as structure.
 */
export interface SideItem {
  kind: string;
  [field: string]: unknown;
}

/** What a side call sends: fixed instructions and the items, one JSON line each. */
export interface SideRequestSpec {
  /** The instructions: fixed text of ours, never anything a model or a file wrote. */
  system: string;
  items: readonly SideItem[];
  maxTokens?: number;
}

/** The items as the request's one user message: one JSON text per line. */
export function encodeItems(items: readonly SideItem[]): string {
  return items.map((item) => jsonText(item)).join('\n');
}

/** The request to a side model: no tools, temperature 0, the instructions and the encoded items. */
export function buildSideRequest(model: string, spec: SideRequestSpec): ModelRequest {
  return {
    model,
    messages: [
      { role: 'system', content: spec.system },
      { role: 'user', content: encodeItems(spec.items) },
    ],
    tools: [],
    temperature: 0,
    ...(spec.maxTokens !== undefined ? { maxTokens: spec.maxTokens } : {}),
  };
}

/** The digest a verdict is recorded with: sha256 over the request's canonical JSON (keys sorted). */
export function requestDigest(request: ModelRequest): string {
  return `sha256:${createHash('sha256').update(jsonText(request, true)).digest('hex')}`;
}
