/** Reads a server's advised wait from `retry-after-ms`, `retry-after` (seconds or a date) or the body text. */
export function retryAfterMs(headers: Headers | Record<string, string | null | undefined> | undefined, body?: string): number | undefined {
  const get = (name: string): string | null | undefined => {
    if (!headers) return undefined;
    if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
    return (headers as Record<string, string | null | undefined>)[name];
  };
  const ms = Number(get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const after = get('retry-after');
  if (after) {
    const seconds = Number(after);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  const hint = body?.match(/(?:retry|try again)[^0-9]{0,20}(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|sec|seconds?)\b/i);
  if (hint) return Number(hint[1]) * (hint[2]!.toLowerCase().startsWith('m') ? 1 : 1000);
  return undefined;
}
