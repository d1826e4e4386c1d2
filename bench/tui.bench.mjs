// The terminal UI's cost per streamed delta: Markdown rendering throughput, and what one frame of
// the live area costs (time and bytes written) while a long answer streams in small chunks.
import { MarkdownStream } from '../dist/cli/tui/markdown-stream.js';
import { LiveScreen } from '../dist/cli/tui/live-screen.js';
import { TurnView } from '../dist/cli/tui/turn-view.js';
import { createTheme } from '../dist/cli/display/theme.js';

const PARAGRAPH = [
  '## Changes',
  '',
  'The **loop** now passes `messages` through *prepareMessages* before each request; see [the docs](https://example.com/docs).',
  '- one item with `code`',
  '- another item that is long enough to wrap on a narrow terminal of eighty columns or less',
  '> a quote',
  '```ts',
  'export function add(a: number, b: number): number { return a + b; } // sum',
  'const text = "string"; /* block */',
  '```',
  '',
].join('\n');

function chunked(text, size) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function markdownThroughput(bytes) {
  const text = PARAGRAPH.repeat(Math.ceil(bytes / PARAGRAPH.length));
  const chunks = chunked(text, 5);
  const stream = new MarkdownStream(createTheme(true));
  const started = performance.now();
  let lines = 0;
  for (const chunk of chunks) {
    lines += stream.push(chunk).length;
    stream.partial();
  }
  lines += stream.end().length;
  const ms = performance.now() - started;
  return { ms, lines, mbPerS: text.length / 1e6 / (ms / 1000) };
}

function frames(deltas) {
  let bytes = 0;
  let writes = 0;
  const out = { columns: 100, rows: 30, write: (s) => ((bytes += Buffer.byteLength(s)), writes++) };
  const screen = new LiveScreen(out);
  const view = new TurnView((lines) => screen.commit(lines), createTheme(true));
  const text = PARAGRAPH.repeat(Math.ceil((deltas * 5) / PARAGRAPH.length)).slice(0, deltas * 5);
  const started = performance.now();
  view.handle({ type: 'turn_start', turn: 1 });
  for (const chunk of chunked(text, 5)) {
    view.handle({ type: 'text_delta', turn: 1, text: chunk }, screen.width);
    screen.render([...view.live(screen.width), '› ', 'status line']);
  }
  const ms = performance.now() - started;
  return { ms, perFrameUs: (ms * 1000) / deltas, bytesPerFrame: bytes / writes };
}

// One paragraph with no line break, the worst case for the partial line: before the fix it was
// re-rendered (and its wrapped rows re-opened every style seen so far) on every delta.
function longParagraph(chars) {
  let bytes = 0;
  let writes = 0;
  const out = { columns: 100, rows: 30, write: (s) => ((bytes += Buffer.byteLength(s)), writes++) };
  const screen = new LiveScreen(out);
  const view = new TurnView((lines) => screen.commit(lines), createTheme(true));
  const text = 'A paragraph with **bold** and `code` that never ends. '.repeat(Math.ceil(chars / 54)).slice(0, chars);
  const started = performance.now();
  for (const chunk of chunked(text, 5)) {
    view.handle({ type: 'text_delta', turn: 1, text: chunk }, screen.width);
    screen.render([...view.live(screen.width, out.rows), '› ', 'status line']);
  }
  const ms = performance.now() - started;
  return { ms, perFrameUs: (ms * 1000) / (chars / 5), bytesPerFrame: bytes / writes };
}

export default async function main() {
  const md = markdownThroughput(1_000_000);
  const f = frames(20_000);
  const p = longParagraph(20_000);
  console.log('\nTerminal UI (bench/tui.bench.mjs)');
  console.table([
    { case: 'Markdown stream, 1 MB in 5-char chunks', result: `${md.ms.toFixed(0)} ms (${md.mbPerS.toFixed(1)} MB/s, ${md.lines} lines)` },
    { case: 'one live-area frame per 5-char delta (100x30)', result: `${f.perFrameUs.toFixed(1)} µs/frame, ${f.bytesPerFrame.toFixed(0)} bytes/frame` },
    { case: 'a 20,000-char paragraph without a newline, 5-char deltas', result: `${p.ms.toFixed(0)} ms in all, ${p.perFrameUs.toFixed(0)} µs/frame, ${p.bytesPerFrame.toFixed(0)} bytes/frame` },
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
