import type { APIError } from '@anthropic-ai/sdk';
import { isInstance } from '../../contracts/lazy-module.js';
import { anthropicSdk } from './sdk.js';
import { connectionError } from '../shared/connection-error.js';
import { isContextLengthMessage } from '../shared/context-length.js';
import { ProviderError } from '../../contracts/provider-error.js';
import { retryAfterMs } from '../shared/retry-hints.js';
import { authFailureMessage, errorBodyMessage } from '../shared/error-body.js';
import { kindOfCodes } from '../shared/error-code.js';

/**
 * Maps whatever the Anthropic SDK threw to the one ProviderError the loop understands. An HTTP
 * error has a status; an `event: error` frame inside a 200 stream has none, only an error type.
 */
export function toProviderError(error: unknown, label: string, where = 'reported an error mid-stream'): ProviderError {
  if (error instanceof ProviderError) return error;
  const sdk = anthropicSdk.loaded();
  if (isInstance(error, sdk?.APIUserAbortError)) return new ProviderError('aborted', 'Request aborted.', { cause: error });
  if (isInstance(error, sdk?.APIConnectionTimeoutError)) return new ProviderError('network', `${label}: the request timed out.`, { cause: error });
  if (isInstance(error, sdk?.APIConnectionError)) {
    return connectionError(label, error);
  }
  if (isInstance(error, sdk?.APIError)) return fromApiError(error, label, where);
  if (error instanceof Error && error.name === 'AbortError') return new ProviderError('aborted', 'Request aborted.', { cause: error });
  // Errors thrown while reading the stream (socket reset, malformed frames) are cuts.
  const text = error instanceof Error ? error.message : String(error);
  return new ProviderError('stream_cut', `${label}: the stream broke off (${text}).`, { cause: error });
}

function fromApiError(error: APIError, label: string, statusless: string): ProviderError {
  const status = error.status;
  const { type, message: detail } = errorBody(error);
  const where = status === undefined ? `${label} ${statusless}` : `${label} returned HTTP ${status}`;
  const message = `${where}: ${type ? `${type}: ` : ''}${detail}`;
  const options = { status, retryAfterMs: retryAfterMs(error.headers, detail), cause: error };
  if (status === 401 || status === 403 || type === 'authentication_error' || type === 'permission_error') {
    return new ProviderError('auth', authFailureMessage(label, status, detail), options);
  }
  if (status === 429 || type === 'rate_limit_error') return new ProviderError('rate_limit', message, options);
  if (/credit balance|billing|quota/i.test(detail)) return new ProviderError('quota', message, options);
  if (status === 413 || type === 'request_too_large' || isContextLengthMessage(detail)) return new ProviderError('context_length', message, options);
  // 529 and overloaded_error: Anthropic is busy, which passes.
  if (status === 529 || type === 'overloaded_error' || type === 'api_error') return new ProviderError('server', message, options);
  // An error event inside a 200 stream: its type says what it is (invalid_request_error is not retried).
  const coded = status === undefined ? kindOfCodes(type) : undefined;
  if (coded) return new ProviderError(coded.kind, message, options);
  if (status === undefined || status >= 500 || status === 408 || status === 409) return new ProviderError('server', message, options);
  return new ProviderError('bad_request', message, options);
}

/** The API's `{type: "error", error: {type, message}}` body, or what the SDK made of it. */
function errorBody(error: APIError): { type: string | undefined; message: string } {
  const body = error.error as { error?: { type?: unknown; message?: unknown }; type?: unknown; message?: unknown } | undefined;
  const inner = body?.error ?? body;
  const type = typeof inner?.type === 'string' && inner.type !== 'error' ? inner.type : undefined;
  if (typeof inner?.message === 'string') return { type, message: inner.message };
  return { type, message: errorBodyMessage(body) ?? error.message };
}

