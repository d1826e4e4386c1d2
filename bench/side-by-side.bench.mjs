// Our CLI against the raw-fetch reference loop (bench/raw-loop.mjs), both spawned as processes
// against one local scripted server, alternating within each repetition: start → first request,
// per-round cost over 200 calculator rounds (sessions on and off), the slowest round of a 15-round
// run, first-request tokens and peak RSS. Compare the ratios: milliseconds move with the load.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const RAW = fileURLToPath(new URL('./raw-loop.mjs', import.meta.url));
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);

function chunk(res, payload) {
  res.write(`data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: 'm', ...payload })}\n\n`);
}

/** Calls calculator until the request holds `rounds` tool results, then answers; notes when each request came. */
export function startServer(rounds) {
  const requests = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const at = performance.now();
      const parsed = JSON.parse(body);
      requests.push({ at, body: parsed });
      const done = parsed.messages.filter((m) => m.role === 'tool').length;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const choice = (delta, finish) => ({ choices: [{ index: 0, delta, finish_reason: finish }] });
      if (done >= rounds) chunk(res, choice({ content: 'done' }, 'stop'));
      else chunk(res, choice({ tool_calls: [{ index: 0, id: `c${done}`, type: 'function', function: { name: 'calculator', arguments: `{"expression":"${done}+1"}` } }] }, 'tool_calls'));
      // A plausible server count (about 4 bytes a token), as a real server reports.
      chunk(res, { choices: [], usage: { prompt_tokens: Math.round(body.length / 4), completion_tokens: 5, total_tokens: Math.round(body.length / 4) + 5 } });
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, requests, url: `http://127.0.0.1:${server.address().port}/v1` })));
}

/** Runs one contender against a fresh server; returns its requests, its start time and peak RSS (KB, from /usr/bin/time). */
async function runOnce(contender, rounds) {
  const { server, requests, url } = await startServer(rounds);
  const home = mkdtempSync(join(tmpdir(), 'vibe-bench-'));
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.data'), OPENAI_API_KEY: 'x', OPENAI_BASE_URL: url, VIBE_MODEL: 'm' };
  const started = performance.now();
  const timeFile = join(home, 'time.txt');
  const child = spawn('/usr/bin/time', ['-o', timeFile, '-f', 'MAXRSS %M', process.execPath, ...contender.args(rounds)], { env, cwd: home, stdio: 'ignore' });
  const code = await new Promise((resolve) => child.on('close', resolve));
  const stderr = readFileSync(timeFile, 'utf8');
  server.close();
  rmSync(home, { recursive: true, force: true });
  if (code !== 0 || requests.length !== rounds + 1) throw new Error(`${contender.name}: exit ${code}, ${requests.length} requests for ${rounds} rounds\n${stderr}`);
  return { requests, started, rssKB: Number(/MAXRSS (\d+)/.exec(stderr)?.[1]) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const gaps = (requests) => requests.slice(1).map((r, i) => r.at - requests[i].at);
const firstTokens = ({ body }) => countTokens(JSON.stringify(body.messages)) + countTokens(JSON.stringify(body.tools ?? []));

const UNBUNDLED = fileURLToPath(new URL('../dist/cli/main.unbundled.js', import.meta.url));
// BENCH_BASE_CLI=/path/to/an/older/dist/cli/main.js adds that build as "before" rows, in the same run.
const BASE = process.env.BENCH_BASE_CLI;
const agent = (name, cli, flags, startOnly = false) => ({ name, startOnly, args: (r) => [cli, 'go', '--tools', 'calculator', '--max-turns', String(r + 5), ...flags] });

const contenders = [
  { name: 'raw loop', args: () => [RAW, 'go'] },
  agent('vibe-agent, session off', CLI, ['--no-session']),
  agent('vibe-agent, session on', CLI, []),
  { name: 'vibe-agent, default tools', args: () => [CLI, 'go', '--no-session'], startOnly: true },
  ...(existsSync(UNBUNDLED) ? [agent('vibe-agent unbundled (tsc output)', UNBUNDLED, ['--no-session'], true)] : []),
  ...(BASE ? [agent('before, session off', BASE, ['--no-session']), agent('before, session on', BASE, [])] : []),
];

export default async function sideBySide() {
  const results = new Map(contenders.map((c) => [c.name, { start: [], rss: [], perRound: [], slowest: [], tokens: 0 }]));
  for (let i = 0; i < REPEAT; i++) {
    for (const contender of contenders) {
      const into = results.get(contender.name);
      const oneShot = await runOnce(contender, 0);
      into.start.push(oneShot.requests[0].at - oneShot.started);
      into.rss.push(oneShot.rssKB / 1024);
      into.tokens = firstTokens(oneShot.requests[0]);
      if (contender.startOnly) continue;
      if (i < 3) into.perRound.push(median([gaps((await runOnce(contender, 200)).requests).reduce((a, b) => a + b, 0) / 200]));
      into.slowest.push(Math.max(...gaps((await runOnce(contender, 15)).requests)));
    }
  }
  const raw = results.get('raw loop');
  const rows = [...results].map(([name, r]) => ({
    contender: name,
    'start→1st request ms': median(r.start).toFixed(0),
    'vs raw': (median(r.start) / median(raw.start)).toFixed(2),
    'ms/round (200)': r.perRound.length ? median(r.perRound).toFixed(2) : '—',
    'over raw ms/round': r.perRound.length ? (median(r.perRound) - median(raw.perRound)).toFixed(2) : '—',
    'slowest of 15 rounds ms': r.slowest.length ? median(r.slowest).toFixed(1) : '—',
    '1st request tokens': r.tokens,
    'peak RSS MB': median(r.rss).toFixed(0),
  }));
  console.log(`\nSide by side against the raw-fetch loop (median of ${REPEAT}; per-round of 3; one local scripted server)`);
  console.table(rows);
}

if (import.meta.url === `file://${process.argv[1]}`) await sideBySide();
