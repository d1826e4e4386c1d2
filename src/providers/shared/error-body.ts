import { ProviderError } from '../../contracts/provider-error.js';

/** Longest raw body shown when no message can be found in it. */
const MAX_RAW = 300;

/**
 * The human sentence in an error body, whatever shape the server chose: `{error: {message}}`
 * (OpenAI, Anthropic, Gemini), `{error: "text"}`, `{message}`, `{detail}` (FastAPI servers),
 * `{error_description}`, a list of those (Gemini's REST errors), or plain text. A body holding no
 * such field is shown raw, cut to a few hundred characters.
 */
export function errorBodyMessage(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return messageInText(body);
  if (Array.isArray(body)) return errorBodyMessage(body[0]);
  if (typeof body !== 'object') return String(body);
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'detail', 'error_description'] as const) {
    if (typeof record[key] === 'string' && record[key] !== '') return record[key];
  }
  if (record.error !== undefined) return errorBodyMessage(record.error);
  return cut(JSON.stringify(body));
}

function messageInText(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return cut(trimmed);
  try {
    return errorBodyMessage(JSON.parse(trimmed)) ?? cut(trimmed);
  } catch {
    return cut(trimmed);
  }
}

function cut(text: string): string {
  return text.length > MAX_RAW ? `${text.slice(0, MAX_RAW)}…` : text;
}

/** "anthropic: authentication failed (401): invalid x-api-key": one sentence for every provider's refused key. */
export function authFailureMessage(label: string, status: number | string | undefined, detail: string): string {
  return `${label}: authentication failed${status !== undefined ? ` (${status})` : ''}: ${detail.replace(/\.$/, '')}`;
}

/** An auth failure with the variable to check ("— check ANTHROPIC_API_KEY"); other errors as they are. */
export function withKeyHint(error: ProviderError, keyVariable: string): ProviderError {
  if (error.kind !== 'auth' || error.message.includes(' — check ')) return error;
  return new ProviderError(error.kind, `${error.message} — check ${keyVariable}`, {
    cause: error.cause,
    retryable: error.retryable,
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
  });
}
