/** An error's message for a person or a model, with the useful part Node hides in `cause`. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const text = error.message || error.name;
  // fetch and sockets hide the useful part ("ECONNREFUSED 127.0.0.1:9") in `cause`.
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
  return detail && !text.includes(detail) ? `${text} (${detail})` : text;
}
