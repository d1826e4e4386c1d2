/**
 * The YAML most front matter is written in: one `key: value` per line, with plain one-line values
 * (text, or a simple number). For that, the same result as the yaml package's (test/plain-yaml.test.ts
 * compares them), without loading the package at start-up. Anything else (quotes, lists, nesting,
 * comments after values, booleans, null, continuation lines, duplicate keys, CR) gives undefined: the caller hands
 * it to the yaml package.
 */
export function parsePlainMapping(text: string): Record<string, string | number> | undefined {
  if (text.includes('\r') || text.includes('\t')) return undefined;
  const data: Record<string, string | number> = {};
  let entries = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const entry = ENTRY.exec(line);
    if (!entry) return undefined;
    const [, key, raw] = entry as unknown as [string, string, string];
    const value = raw.replace(/ +$/, '');
    if (RESERVED_KEY.test(key) || Object.hasOwn(data, key)) return undefined;
    if (NUMBER.test(value)) data[key] = Number(value);
    else if (PLAIN_TEXT.test(value) && !WORD_SCALAR.test(value) && !/:( |$)| #/.test(value)) data[key] = value;
    else return undefined;
    entries++;
  }
  return entries ? data : undefined;
}

const ENTRY = /^([A-Za-z_][A-Za-z0-9_-]*): +(\S.*)$/;
// Keys the yaml package or an object would treat specially.
const RESERVED_KEY = /^(null|true|false|yes|no|on|off|y|n|__proto__|constructor|prototype|<<)$/i;
// Plain text starts with a letter (no indicator, quote, digit or sign) and holds no flow brackets.
const PLAIN_TEXT = /^[A-Za-z][^[\]{}]*$/;
// Words YAML 1.1 or 1.2 resolve to something other than a string.
const WORD_SCALAR = /^(null|true|false|yes|no|on|off|y|n)$/i;
const NUMBER = /^-?(0|[1-9][0-9]{0,14})(\.[0-9]{1,15})?$/;
