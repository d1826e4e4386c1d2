export interface Chunk {
  /** 1-based first line in the file. */
  line: number;
  endLine: number;
  /** The heading it sits under (Markdown, HTML) or the file's first line otherwise. */
  title: string;
  text: string;
}

const MAX_CHUNK_LINES = 60;
const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;

/**
 * Sections of a document: a new chunk at each Markdown heading (HTML headings became `#` lines),
 * and long sections (or code and plain text, which have none) cut at a blank line near every 60 lines.
 */
export function chunkText(text: string, isMarkdown: boolean): Chunk[] {
  const lines = text.split('\n');
  const chunks: Chunk[] = [];
  let start = 0;
  let title = '';
  const close = (end: number) => {
    const body = lines.slice(start, end).join('\n');
    if (body.trim() !== '') chunks.push({ line: start + 1, endLine: end, title: title || firstLine(body), text: body });
    start = end;
  };
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (isMarkdown && /^(```|~~~)/.test(line)) inFence = !inFence;
    const heading = isMarkdown && !inFence ? HEADING.exec(line) : null;
    if (heading && i > start) close(i);
    if (heading) title = heading[2]!;
    const length = i + 1 - start;
    if (length >= MAX_CHUNK_LINES && (line.trim() === '' || length >= MAX_CHUNK_LINES * 2)) close(i + 1);
  }
  close(lines.length);
  return chunks;
}

function firstLine(text: string): string {
  return (text.split('\n').find((line) => line.trim() !== '') ?? '').trim().slice(0, 80);
}
