/** Environment variables whose values are treated as secrets: API keys, tokens, passwords. */
const SECRET_NAME = /(_KEY|_TOKEN|_SECRET|PASSWORD)$/i;
const MIN_SECRET_LENGTH = 8;

export const isSecretName = (name: string): boolean => SECRET_NAME.test(name);
export const REDACTED = '[redacted]';

/** Secret values from the environment (by variable name) plus any given explicitly (e.g. `--api-key`). */
export function collectSecrets(env: NodeJS.ProcessEnv, extra: Array<string | undefined> = []): string[] {
  const fromEnv = Object.entries(env)
    .filter(([name, value]) => SECRET_NAME.test(name) && value !== undefined)
    .map(([, value]) => value!);
  const all = [...fromEnv, ...extra].filter((value): value is string => value !== undefined && value.length >= MIN_SECRET_LENGTH);
  // Longest first, so a secret that contains another is replaced whole.
  return [...new Set(all)].sort((a, b) => b.length - a.length);
}

/** A JSON string literal in any text: whole documents, fragments, invalid JSON, cut off at the end. */
const STRING_LITERAL = /"(?:[^"\\]|\\.)*(?:"|$)/gs;

/**
 * Replaces every occurrence of each secret in a string, also after decoding: tool-call arguments
 * are raw JSON text, where a model can spell a key with escapes (`sk\u002dlive`, `\/`). Every
 * string literal with an escape is decoded, redacted (nested JSON too) and re-serialised.
 */
export function createRedactor(secrets: string[]): (text: string) => string {
  const forms = [...new Set(secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]))].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return (text) => text;
  const redact = (text: string): string => {
    let out = text;
    for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    if (!out.includes('\\')) return out;
    return out.replace(STRING_LITERAL, (literal) => {
      if (!literal.includes('\\')) return literal;
      const closed = literal.length > 1 && literal.endsWith('"') && !/(?<!\\)(\\\\)*\\"$/.test(literal);
      let decoded: string;
      try {
        decoded = JSON.parse(closed ? literal : `${literal}"`) as string;
      } catch {
        return literal;
      }
      const clean = redact(decoded);
      if (clean === decoded) return literal;
      return closed ? JSON.stringify(clean) : JSON.stringify(clean).slice(0, -1);
    });
  };
  return redact;
}

/**
 * JSON text of a value with every string in it redacted. `images`, when given, maps every `images`
 * array before it is written (e.g. to leave the base64 out: see session-images.ts).
 *
 * A session writes a record per event, and a replacer called for every value takes JSON.stringify
 * off its fast path: so the text is written plainly and searched as a whole first (the redactor
 * finds a secret in its escaped form and inside escaped literals, nested JSON too). Any string
 * value holding a secret makes that search find one; only then is it written value by value.
 */
export function redactedJson(value: unknown, redact: (text: string) => string, images?: (list: unknown[]) => unknown[]): string {
  let text = JSON.stringify(value);
  if (images && text.includes('"images":')) text = JSON.stringify(value, (key, item: unknown) => (key === 'images' && Array.isArray(item) ? images(item) : item));
  if (redact(text) === text) return text;
  return JSON.stringify(value, (key, item: unknown) => {
    if (typeof item === 'string') return redact(item);
    return images && key === 'images' && Array.isArray(item) ? images(item) : item;
  });
}

