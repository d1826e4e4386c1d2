import type { APIError } from 'openai';
import { isInstance } from '../../contracts/lazy-module.js';
import { openaiSdk } from './sdk.js';
import { connectionError } from '../shared/connection-error.js';
import { isContextLengthMessage } from '../shared/context-length.js';
import { ProviderError } from '../../contracts/provider-error.js';
import { retryAfterMs } from '../shared/retry-hints.js';
import { authFailureMessage, errorBodyMessage } from '../shared/error-body.js';
import { kindOfCodes } from '../shared/error-code.js';

/** Maps whatever the SDK threw to the one ProviderError the loop understands. */
/** `where` describes an error without an HTTP status (default: an error frame inside a 200 stream). */
export function toProviderError(error: unknown, label: string, where = 'reported an error mid-stream'): ProviderError {
  if (error instanceof ProviderError) return error;
  const sdk = openaiSdk.loaded();
  if (isInstance(error, sdk?.APIUserAbortError)) return new ProviderError('aborted', 'Request aborted.', { cause: error });
  if (isInstance(error, sdk?.APIConnectionTimeoutError)) return new ProviderError('network', `${label}: the request timed out.`, { cause: error });
  if (isInstance(error, sdk?.APIConnectionError)) {
    return connectionError(label, error);
  }
  if (isInstance(error, sdk?.APIError)) {
    const body = bodyText(error);
    // Without an HTTP status (an error event or frame inside a 200 stream) the codes on the error say what it is.
    const coded = error.status === undefined ? kindOfCodes(error.code, error.type, (error.error as { code?: unknown } | undefined)?.code) : undefined;
    const status = error.status ?? coded?.status;
    const message = error.status === undefined ? `${label} ${where}: ${body}${typeof error.code === 'string' ? ` (${error.code})` : ''}` : `${label} returned HTTP ${status}: ${body}`;
    const options = { status, retryAfterMs: retryAfterMs(error.headers, body), cause: error };
    if (coded?.kind === 'auth') return new ProviderError('auth', authFailureMessage(label, status, body), options);
    if (coded && !(coded.kind === 'bad_request' && isContextLengthMessage(body))) return new ProviderError(coded.kind, message, options);
    if (status === 401 || status === 403) return new ProviderError('auth', authFailureMessage(label, status, body), options);
    if (status === 429) {
      const quota = /insufficient_quota|quota|billing|spend|credit/i.test(body);
      return new ProviderError(quota ? 'quota' : 'rate_limit', message, options);
    }
    if (isContextLengthMessage(body)) return new ProviderError('context_length', message, options);
    if (status === undefined || status >= 500 || status === 408 || status === 409) return new ProviderError('server', message, options);
    return new ProviderError('bad_request', message, options);
  }
  if (error instanceof Error && error.name === 'AbortError') return new ProviderError('aborted', 'Request aborted.', { cause: error });
  // Errors thrown while reading the stream (socket reset, malformed frames) are cuts.
  const text = error instanceof Error ? error.message : String(error);
  return new ProviderError('stream_cut', `${label}: the stream broke off (${text}).`, { cause: error });
}

/** The SDK keeps the body's `error` field; a body without one is only in the message, as text. */
function bodyText(error: APIError): string {
  return errorBodyMessage(error.error) ?? error.message;
}

