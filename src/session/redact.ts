import { unescapedText, unescapeSpans } from './unescape-spans.js';

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

/**
 * Replaces every occurrence of each secret in a string, also behind any JSON or shell spelling:
 * tool-call arguments are raw JSON text, and a command is shell text, where a model can spell a key
 * with escapes (`sk\u002dlive`, `\/`, `$'\x73k'`, `\163`) or split it with quotes (`'sk-'"live"`).
 * The text is normalised once (unescape-spans.ts: escapes undone, quotes removed, repeatedly for
 * nested JSON) and each secret found there is replaced over exactly the span it came from, so the
 * text around it keeps its shape (JSON stays JSON).
 */
export function createRedactor(secrets: string[]): (text: string) => string {
  const forms = [...new Set(secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]))].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return (text) => text;
  const normalised = [...new Set(secrets.map((secret) => unescapedText(secret).text))].filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  return (text) => {
    let out = text;
    for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    if (!out.includes('\\') && !out.includes('"') && !out.includes("'")) return out;
    // Most texts hold no secret: the decoded text alone says so; the spans are worked out only for one that does.
    const found = (decoded: string) => normalised.some((secret) => decoded.includes(secret));
    const printf = unescapedText(out);
    const echo = printf.zeroOctal && found(unescapedText(out, true).text);
    if (!found(printf.text) && !echo) return out;
    const spans: Array<[number, number]> = [];
    for (const decoded of echo ? [unescapeSpans(out), unescapeSpans(out, true)] : [unescapeSpans(out)]) {
      for (const secret of normalised) {
        for (let at = decoded.text.indexOf(secret); at >= 0; at = decoded.text.indexOf(secret, at + secret.length)) spans.push([decoded.from[at]!, decoded.to[at + secret.length - 1]!]);
      }
    }
    // The two decodings are one (test/hostile-redact-escapes-property.test.ts): should they ever part, fail closed.
    return spans.length === 0 ? REDACTED : replaceSpans(out, spans);
  };
}

function replaceSpans(text: string, spans: Array<[number, number]>): string {
  spans.sort((a, b) => a[0] - b[0]);
  let result = '';
  let done = 0;
  for (const [start, end] of spans) {
    if (end <= done) continue;
    result += text.slice(done, Math.max(start, done)) + (start >= done ? REDACTED : '');
    done = end;
  }
  return result + text.slice(done);
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

