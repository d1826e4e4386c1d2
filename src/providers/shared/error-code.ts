import type { ProviderErrorKind } from '../../contracts/provider-error.js';

/**
 * What an error is, read from the codes a provider put on it, wherever it came: an HTTP body, an
 * error event, an error frame inside a 200 stream. Vendors name the same thing differently
 * (OpenAI's `insufficient_quota`, Groq's `tool_use_failed`, Anthropic's `overloaded_error`,
 * OpenRouter's numeric `code: 502` inside a frame); every wire asks here, so an error is retried or
 * not by what it is, not by where it turned up. Undefined when no code says anything.
 */
export function kindOfCodes(...codes: unknown[]): { kind: ProviderErrorKind; status?: number } | undefined {
  for (const code of codes) {
    const found = typeof code === 'number' ? kindOfStatus(code) : typeof code === 'string' ? kindOfName(code) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** A numeric code inside a frame (OpenRouter's) is the HTTP status the request would have had. */
function kindOfStatus(code: number): { kind: ProviderErrorKind; status: number } | undefined {
  if (!Number.isInteger(code) || code < 400 || code > 599) return undefined;
  const kind: ProviderErrorKind =
    code === 401 || code === 403 ? 'auth' : code === 402 ? 'quota' : code === 429 ? 'rate_limit' : code === 413 ? 'context_length' : code >= 500 || code === 408 || code === 409 ? 'server' : 'bad_request';
  return { kind, status: code };
}

const NAMED: Array<[RegExp, ProviderErrorKind]> = [
  [/insufficient_quota|quota|billing|credit|payment_required/i, 'quota'],
  [/rate_limit|too_many_requests/i, 'rate_limit'],
  [/context_length|context_window|request_too_large|too_many_tokens/i, 'context_length'],
  [/invalid_api_key|authentication|permission|unauthori[sz]ed|forbidden/i, 'auth'],
  [/overloaded|server_error|internal|unavailable|api_error|timeout/i, 'server'],
  [/tool_use_failed|invalid|not_found|unsupported|bad_request|validation/i, 'bad_request'],
];

function kindOfName(code: string): { kind: ProviderErrorKind } | undefined {
  if (/^\d+$/.test(code)) return kindOfStatus(Number(code));
  for (const [pattern, kind] of NAMED) if (pattern.test(code)) return { kind };
  return undefined;
}
