// Token counting bounded for any input (issue 19, class 1): the time to count 1 MB of one repeated
// character, and of other worst cases, with the counter the context policy uses. Whole-text BPE is
// quadratic on a run of one character; the "whole text" column shows that on a 16,000-character run.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { TokenCounter } from '../dist/context/token-count.js';

const MB = 1_000_000;

function randomLetters(n) {
  let seed = 1;
  let text = '';
  for (let i = 0; i < n; i++) text += 'abcdefghijklmnopqrstuvwxyz'[(seed = (seed * 1103515245 + 12345) % 2147483648) % 26];
  return text;
}

function timed(count) {
  const started = performance.now();
  const tokens = count();
  return { tokens, ms: performance.now() - started };
}

export default async function tokenCountBench() {
  const counter = await TokenCounter.create();
  counter.text('warm up '.repeat(1000));
  const inputs = [
    ['1 MB of "="', '='.repeat(MB), '='],
    ['1 MB of "a"', 'a'.repeat(MB), 'a'],
    ['1 MB of spaces', ' '.repeat(MB), ' '],
    ['1 MB of "🙂"', '🙂'.repeat(MB / 2), '🙂'],
    ['1 MB of random letters', randomLetters(MB), undefined],
    ['1 MB of code', 'export const add = (a, b) => a + b; // sum\n'.repeat(MB / 43), undefined],
  ];
  const rows = inputs.map(([input, text, char]) => {
    const now = timed(() => counter.text(text));
    // The old way, on a run short enough to finish: the whole text handed to the tokenizer.
    const whole = char ? timed(() => countTokens(char.repeat(16_000))) : undefined;
    return { input, 'tokens (counted)': now.tokens, 'ms now': now.ms.toFixed(0), 'whole-text BPE, 16,000 chars, ms': whole ? whole.ms.toFixed(0) : '—', target: '< 1000', result: now.ms < 1000 ? 'PASS' : 'MISS' };
  });
  console.log('\nToken counting, worst cases (o200k; runs cut at 128 characters, texts over 16 KB sampled)');
  console.table(rows);
}

if (import.meta.url === `file://${process.argv[1]}`) await tokenCountBench();
