import { ProviderError } from '../../contracts/provider-error.js';

/**
 * Some servers answer a streaming request with plain JSON: an error body under HTTP 200 (proxies,
 * gateways), or the whole reply because they ignore `stream: true`. Read as an event stream,
 * either one is an empty stream, and the server's own words are lost. Returns the parsed body
 * in that case, or undefined for an event stream (left unread).
 */
export async function jsonInsteadOfStream(response: Response): Promise<Record<string, unknown> | undefined> {
  const type = response.headers.get('content-type') ?? '';
  if (!/\bjson\b/i.test(type) || /event-stream/i.test(type)) return undefined;
  // A copy is read, so that an event stream mislabelled as JSON can still be read as one.
  const text = await response.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  await response.body?.cancel();
  return body as Record<string, unknown>;
}

/** The error a JSON body that is neither a reply nor an error becomes. */
export function unexpectedJson(label: string, body: unknown): ProviderError {
  return new ProviderError('server', `${label} answered a streaming request with JSON that is neither a reply nor an error: ${snippet(JSON.stringify(body))}`);
}

function snippet(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
