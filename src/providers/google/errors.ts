import type { ApiError } from '@google/genai';
import { isInstance } from '../../contracts/lazy-module.js';
import { googleSdk } from './sdk.js';
import { connectionError } from '../shared/connection-error.js';
import { isContextLengthMessage } from '../shared/context-length.js';
import { ProviderError } from '../../contracts/provider-error.js';
import { retryAfterMs } from '../shared/retry-hints.js';
import { authFailureMessage } from '../shared/error-body.js';

/** The `error` object of a Gemini error body (google.rpc.Status). */
interface RpcStatus {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<{ '@type'?: string; reason?: string; retryDelay?: string; violations?: Array<{ quotaId?: string }> }>;
}

/**
 * Maps what the Gemini SDK threw to the one ProviderError the loop understands.
 * `opened` says whether the stream had started: a failure after that is a cut, not a network error.
 */
export function toProviderError(error: unknown, label: string, opened: boolean): ProviderError {
  if (error instanceof ProviderError) return error;
  // The caller's abort is handled before this; an abort here is the SDK's own time limit.
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return new ProviderError('network', `${label}: the request timed out.`, { cause: error });
  }
  if (isInstance(error, googleSdk.loaded()?.ApiError)) return fromApiError(error, label);
  const text = error instanceof Error ? error.message : String(error);
  if (!opened) return connectionError(label, error);
  // Socket resets, a half-sent frame at the end, unparsable frames: the reply broke off.
  return new ProviderError('stream_cut', `${label}: the stream broke off (${text}).`, { cause: error });
}

function fromApiError(error: ApiError, label: string): ProviderError {
  const status = error.status;
  const rpc = parseStatus(error.message);
  const body = rpc?.message ?? error.message;
  const message = `${label} returned HTTP ${status}${rpc?.status ? ` ${rpc.status}` : ''}: ${body}`;
  const options = { status, retryAfterMs: retryDelayMs(rpc) ?? retryAfterMs(undefined, body), cause: error };
  const reasons = (rpc?.details ?? []).map((detail) => detail.reason ?? '');
  // A bad key is a 400 INVALID_ARGUMENT with reason API_KEY_INVALID, not a 401.
  if (status === 401 || status === 403 || reasons.includes('API_KEY_INVALID') || /API key not valid/i.test(body)) {
    return new ProviderError('auth', authFailureMessage(label, `${status}${rpc?.status ? ` ${rpc.status}` : ''}`, body), options);
  }
  if (status === 429) return new ProviderError(isQuota(rpc, body) ? 'quota' : 'rate_limit', message, options);
  if (isContextLengthMessage(body)) return new ProviderError('context_length', message, options);
  if (status >= 500 || status === 408 || status === 409) return new ProviderError('server', message, options);
  return new ProviderError('bad_request', message, options);
}

/**
 * Gemini answers 429 RESOURCE_EXHAUSTED both for "too fast" and for "out of quota", with the
 * same "check your plan and billing" text. The QuotaFailure detail tells them apart: a daily
 * quota, or a limit of 0 (the model is not in the plan), will not pass by waiting a minute.
 */
function isQuota(rpc: RpcStatus | undefined, body: string): boolean {
  const quotaIds = (rpc?.details ?? []).flatMap((detail) => detail.violations ?? []).map((v) => v.quotaId ?? '');
  if (quotaIds.some((id) => /PerDay|PerMonth/i.test(id))) return true;
  if (/limit: 0\b/.test(body)) return true;
  if (quotaIds.some((id) => /PerMinute|PerSecond/i.test(id))) return false;
  if (retryDelayMs(rpc) !== undefined) return false;
  return /prepayment|credits? (?:are|is) depleted|billing account|spending cap/i.test(body);
}

/** RetryInfo's `retryDelay` ("27s", "1.5s"). */
function retryDelayMs(rpc: RpcStatus | undefined): number | undefined {
  const delay = rpc?.details?.find((detail) => typeof detail.retryDelay === 'string')?.retryDelay;
  const match = delay?.match(/^(\d+(?:\.\d+)?)s$/);
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

/** The SDK puts the response body, as JSON text, in the message (prefixed "got status: ..." for in-stream errors). */
function parseStatus(message: string): RpcStatus | undefined {
  const start = message.indexOf('{');
  if (start < 0) return undefined;
  try {
    const parsed = JSON.parse(message.slice(start)) as { error?: RpcStatus } | RpcStatus[];
    const body = Array.isArray(parsed) ? (parsed[0] as { error?: RpcStatus } | undefined) : parsed;
    return body?.error;
  } catch {
    return undefined;
  }
}
