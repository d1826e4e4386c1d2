// The prompt-JSON reply parser on what models send, and on replies built to make it work hard.
// Target: a typical reply in well under 0.1 ms; no input of 100 kB past ~20 ms.
import { parseReply } from '../dist/providers/prompt-json/parse-reply.js';

const cases = [
  ['bare call (70 B)', '{"tool": "calculator", "arguments": {"expression": "17 * 23"}}'],
  ['fenced call with prose (300 B)', `Sure! Let me work that out for you step by step.\n\`\`\`json\n{"tool": "fetch_url", "arguments": {"url": "https://example.com/a/long/path?q=1",},}\n\`\`\`\nI will then divide the length by seven and report back with the result.`],
  ['answer of 20 kB', JSON.stringify({ answer: 'word '.repeat(4000) })],
  ['prose, no JSON (100 kB)', 'plain words and nothing else '.repeat(3500)],
  ['unclosed object of 100 kB', `{"tool": "write_file", "arguments": {"content": "${'x'.repeat(100_000)}`],
  ['100 kB of { and [ (worst case)', '{['.repeat(50_000)],
];

function time(text) {
  let runs = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < 300 || runs < 5) {
    parseReply(text);
    runs++;
    elapsed = performance.now() - started;
  }
  return elapsed / runs;
}

export default async function bench() {
  const rows = cases.map(([name, text]) => {
    const ms = time(text);
    return { input: name, 'µs/reply': (ms * 1000).toFixed(1), kind: parseReply(text).kind };
  });
  console.log('\nprompt-JSON parser (parseReply)');
  console.table(rows);
}
