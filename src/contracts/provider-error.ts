import type { Usage } from './messages.js';

/** The one error type a provider throws. The loop retries or stops on `kind`, never on message text. */
export type ProviderErrorKind =
  | 'auth'
  | 'rate_limit'
  | 'quota'
  | 'server'
  | 'network'
  | 'stream_cut'
  | 'context_length'
  | 'bad_request'
  | 'aborted'
  /** The model's replies could not be read, several in a row (a text protocol): a repeated failure, not retried. */
  | 'unreadable_reply';

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set(['rate_limit', 'server', 'network', 'stream_cut']);

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;
  /** Server-advised wait before retrying, when it said one. */
  readonly retryAfterMs: number | undefined;
  /** Tokens the failed request had already spent (a text protocol's unreadable replies), when known. */
  readonly usage: Usage | undefined;
  /** Set when the kind alone would mislead the retry policy (a refused local connection). */
  private readonly retryOverride: boolean | undefined;

  constructor(kind: ProviderErrorKind, message: string, options: { status?: number; retryAfterMs?: number; cause?: unknown; retryable?: boolean; usage?: Usage } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.usage = options.usage;
    this.retryOverride = options.retryable;
  }

  get retryable(): boolean {
    return this.retryOverride ?? RETRYABLE.has(this.kind);
  }
}

export function isAbortError(error: unknown): boolean {
  if (error instanceof ProviderError) return error.kind === 'aborted';
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError');
}

/**
 * The error with the API key cut out of its message and its cause's: a server (or a proxy) that
 * echoes the Authorization header in its error body must not put the key on the screen, in
 * --json or in logs (`errorText` shows the cause's message too).
 */
export function withoutKey(error: ProviderError, apiKey: string | undefined): ProviderError {
  const cause = error.cause as { message?: unknown; code?: unknown } | undefined;
  const causeMessage = typeof cause?.message === 'string' ? cause.message : '';
  if (!apiKey || apiKey.length < 8 || !(error.message.includes(apiKey) || causeMessage.includes(apiKey))) return error;
  const hide = (text: string) => text.split(apiKey).join('[redacted]');
  const cleanCause = Object.assign(new Error(hide(causeMessage)), typeof cause?.code === 'string' ? { code: cause.code } : {});
  const options = {
    cause: cleanCause,
    retryable: error.retryable,
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
  };
  return new ProviderError(error.kind, hide(error.message), options);
}
