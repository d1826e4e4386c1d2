// repairHistory runs before every model request, so its cost is paid once per turn on the whole
// history: a sound history (the common case, returned as is) and one with dangling calls to fix.
import { repairHistory } from '../dist/core/repair-history.js';

function history(turns, { dangling }) {
  const messages = [{ role: 'user', content: 'go' }];
  for (let i = 0; i < turns; i++) {
    const calls = [0, 1, 2].map((k) => ({ id: `c${i}_${k}`, name: 'read', arguments: `{"path":"f${k}"}` }));
    messages.push({ role: 'assistant', content: '', toolCalls: calls });
    for (const call of calls) {
      if (dangling && call.id.endsWith('_2')) continue;
      messages.push({ role: 'tool', toolCallId: call.id, name: 'read', content: 'x'.repeat(200), isError: false });
    }
  }
  return messages;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function time(messages, repeats) {
  const samples = [];
  for (let r = 0; r < repeats; r++) {
    const started = performance.now();
    repairHistory(messages);
    samples.push(performance.now() - started);
  }
  return median(samples);
}

export default async function () {
  const rows = [];
  for (const turns of [100, 1000, 5000]) {
    const sound = history(turns, { dangling: false });
    const broken = history(turns, { dangling: true });
    time(sound, 5); // warm-up
    const soundMs = time(sound, 21);
    rows.push({
      turns,
      messages: sound.length,
      'sound ms': soundMs.toFixed(3),
      'dangling ms': time(broken, 21).toFixed(3),
      'target < 1 ms (sound, 1000 turns)': turns === 1000 ? (soundMs < 1 ? 'PASS' : 'MISS') : '',
    });
  }
  console.log('\nrepairHistory, median of 21 runs');
  console.table(rows);
}
