/** How a text file stores its lines, so an edit can write them back the same way. */
export type LineEnding = 'lf' | 'crlf' | 'mixed';

export interface TextLayout {
  /** The file started with a UTF-8 byte-order mark. */
  bom: boolean;
  /** 'mixed' files are left byte-for-byte as they are: normalising them would touch unrelated lines. */
  eol: LineEnding;
}

const BOM = '\uFEFF';

export function detectLineEnding(text: string): LineEnding {
  const newlines = countOf(text, '\n');
  if (newlines === 0) return 'lf';
  const crlf = countOf(text, '\r\n');
  if (crlf === 0) return 'lf';
  return crlf === newlines ? 'crlf' : 'mixed';
}

/** Splits decoded text into its layout and its content with LF line endings (unless mixed). */
export function toLogicalText(decoded: string): { text: string; layout: TextLayout } {
  const bom = decoded.startsWith(BOM);
  const body = bom ? decoded.slice(1) : decoded;
  const eol = detectLineEnding(body);
  return { text: eol === 'crlf' ? body.replaceAll('\r\n', '\n') : body, layout: { bom, eol } };
}

/** The inverse of toLogicalText. */
export function toStoredText(text: string, layout: TextLayout): string {
  const body = layout.eol === 'crlf' ? text.replaceAll('\r\n', '\n').replaceAll('\n', '\r\n') : text;
  return layout.bom ? BOM + body : body;
}

/** Lines as a person counts them: "" has 0, "a" and "a\n" have 1, "a\nb" has 2. */
export function countLines(text: string): number {
  if (text === '') return 0;
  const newlines = countOf(text, '\n');
  return text.endsWith('\n') ? newlines : newlines + 1;
}

function countOf(text: string, needle: string): number {
  let count = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) count++;
  return count;
}
