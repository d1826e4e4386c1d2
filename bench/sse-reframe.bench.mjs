// Issue 34, class 4: one server-sent event of N MB through the re-framer alone (sseReframe, what
// every provider's bounded fetch puts before the SDK's decoder), fed in 64 KiB chunks as a socket
// delivers them; then end to end, over HTTP through the openai SDK with the bounded fetch. Linear
// means the time per MB stays flat as N grows (the end-to-end column has a fixed start-up cost).
import { boundedFetch } from '../dist/contracts/bounded-fetch.js';
import { sseReframe } from '../dist/contracts/sse-reframe.js';
import { decode } from './stream-decode.bench.mjs';

const MB = 1024 * 1024;
const CHUNK = 64 * 1024;

async function reframe(megabytes) {
  const head = Buffer.from('data: {"choices":[{"delta":{"content":"');
  const tail = Buffer.from('"}}]}\n\ndata: [DONE]\n\n');
  const piece = Buffer.alloc(CHUNK, 'x');
  const total = megabytes * MB;
  let sent = 0;
  const source = new ReadableStream({
    start(controller) {
      controller.enqueue(new Uint8Array(head));
    },
    pull(controller) {
      if (sent >= total) {
        controller.enqueue(new Uint8Array(tail));
        return controller.close();
      }
      controller.enqueue(new Uint8Array(piece));
      sent += piece.length;
    },
  });
  const started = performance.now();
  let bytes = 0;
  for await (const chunk of sseReframe(source, 'bench', { maxEventBytes: 256 * MB, maxReplyBytes: 256 * MB })) bytes += chunk.byteLength;
  const ms = performance.now() - started;
  if (bytes < total) throw new Error(`re-framed ${bytes} bytes of ${total}`);
  return ms;
}

/** End to end over HTTP through the openai SDK with the bounded fetch (stream-decode.bench.mjs's server). */
const endToEnd = (megabytes) => decode(megabytes, boundedFetch('bench', { maxEventBytes: 256 * MB, maxReplyBytes: 256 * MB }));

export default async function sseReframeBench(sizes = [4, 16, 64, 100]) {
  const rows = [];
  for (const size of sizes) {
    const ms = await reframe(size);
    const whole = await endToEnd(size);
    rows.push({ 'one event': `${size} MB`, 'sseReframe, ms': ms.toFixed(0), 'ms per MB': (ms / size).toFixed(1), 'openai SDK end to end, ms': whole.toFixed(0), 'end to end, ms per MB': (whole / size).toFixed(1) });
  }
  console.log('\nOne server-sent event of N MB through sseReframe alone (64 KiB chunks), and end to end');
  console.table(rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await sseReframeBench(process.argv.slice(2).map(Number).filter(Boolean).length ? process.argv.slice(2).map(Number) : undefined);
