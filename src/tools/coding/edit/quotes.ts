const CURLY_SINGLE = /[\u2018\u2019\u201A\u201B]/g;
const CURLY_DOUBLE = /[\u201C\u201D\u201E\u201F]/g;

/** Curly quotes become straight ones. Length-preserving, so indices map 1:1 onto the original. */
export function straightenQuotes(text: string): string {
  return text.replace(CURLY_SINGLE, "'").replace(CURLY_DOUBLE, '"');
}

export function hasCurlyQuotes(text: string): boolean {
  return /[\u2018-\u201F]/.test(text);
}

/**
 * Writes `replacement` in the quote style of `original` (the file text it replaces): a model that
 * typed straight quotes over curly ones should not silently change the file's typography.
 */
export function matchQuoteStyle(replacement: string, original: string): string {
  const singles = /[\u2018\u2019]/.test(original);
  const doubles = /[\u201C\u201D]/.test(original);
  if (!singles && !doubles) return straightenQuotes(replacement);
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const char = replacement[i] as string;
    const before = i === 0 ? '' : (replacement[i - 1] as string);
    const opening = before === '' || /[\s([{\u2014-]/.test(before);
    if (char === '"' && doubles) out += opening ? '\u201C' : '\u201D';
    // An apostrophe inside a word (don't) is a closing quote in typography.
    else if (char === "'" && singles) out += opening ? '\u2018' : '\u2019';
    else out += char;
  }
  return out;
}
