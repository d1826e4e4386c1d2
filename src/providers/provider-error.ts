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
  | 'aborted';

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set(['rate_limit', 'server', 'network', 'stream_cut']);

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;
  /** Server-advised wait before retrying, when it said one. */
  readonly retryAfterMs: number | undefined;

  constructor(kind: ProviderErrorKind, message: string, options: { status?: number; retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}

export function isAbortError(error: unknown): boolean {
  if (error instanceof ProviderError) return error.kind === 'aborted';
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError');
}
