import { ProviderError } from '../../contracts/provider-error.js';
import { blockedPortAdvice } from './blocked-ports.js';

interface SocketCause {
  code?: string;
  message?: string;
  address?: string;
  port?: number;
  /** getaddrinfo's errors name the host they could not resolve. */
  hostname?: string;
}

/** The first error in the `cause` chain that names a socket error (fetch hides it two levels down). */
function socketCause(error: unknown): SocketCause | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const candidate = current as SocketCause & { cause?: unknown };
    if (depth > 0 && typeof candidate.code === 'string') return candidate;
    current = candidate.cause;
  }
  const first = (error as { cause?: SocketCause } | undefined)?.cause;
  return first && typeof first === 'object' ? first : undefined;
}

/** undici's own error for a port the Fetch standard blocks: it has no code, only this message. */
function isBadPort(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    if ((current as { message?: unknown }).message === 'bad port') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+|localhost)$/;

/**
 * A request that never reached a server. Retried like any network failure, except a refused
 * connection on this machine: nothing is listening there (Ollama not started, a wrong port), and
 * waiting 10 s through back-off only hides that; a host name the DNS says does not exist (ENOTFOUND:
 * a typo in the base URL; EAI_AGAIN, a resolver that did not answer, stays retryable); and a port
 * fetch refuses, which no retry can change.
 */
export function connectionError(label: string, error: unknown): ProviderError {
  if (isBadPort(error)) return new ProviderError('network', `${label}: could not connect (bad port). ${blockedPortAdvice()}`, { cause: error, retryable: false });
  const cause = socketCause(error);
  const code = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  if (cause?.code === 'ECONNREFUSED' && cause.address !== undefined && LOOPBACK.test(cause.address)) {
    const where = cause.port !== undefined ? `${cause.address}:${cause.port}` : cause.address;
    return new ProviderError(
      'network',
      `${label}: could not connect (ECONNREFUSED). Nothing is listening on ${where}: start the server (for Ollama: ollama serve) or check the base URL.`,
      { cause: error, retryable: false },
    );
  }
  if (cause?.code === 'ENOTFOUND' && cause.hostname !== undefined) {
    return new ProviderError('network', `${label}: could not connect (ENOTFOUND): the host ${cause.hostname} does not resolve. Check the base URL (a typo in the host name?) and your DNS.`, { cause: error, retryable: false });
  }
  const host = cause?.hostname !== undefined ? ` to ${cause.hostname}` : '';
  return new ProviderError('network', `${label}: could not connect${host} (${code}).`, { cause: error });
}
