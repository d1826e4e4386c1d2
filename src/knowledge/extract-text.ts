const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * The text of an HTML page with its line numbers kept (so path:line points into the source):
 * scripts, styles and comments blanked, headings turned into Markdown `#` lines, tags removed.
 */
export function htmlToText(html: string): string {
  const keepLines = (match: string) => match.replace(/[^\n]/g, '');
  return html
    .replace(/<!--[\s\S]*?-->/g, keepLines)
    .replace(/<(script|style|noscript)\b[\s\S]*?<\/\1\s*>/gi, keepLines)
    .replace(/<h([1-6])\b[^>]*>/gi, (_, level: string) => `${'#'.repeat(Number(level))} `)
    .replace(/<[^>]*>/g, (tag) => keepLines(tag))
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
      return ENTITIES[name.toLowerCase()] ?? whole;
    });
}

/** Text to index for a file, by its extension. */
export function extractText(path: string, raw: string): string {
  return /\.html?$/i.test(path) ? htmlToText(raw) : raw;
}
