// The first tool round against a later one (issue 38): the CLI spawned with `--tools calculator`
// against a local scripted Chat Completions server that waits BENCH_TTFB_MS (a list, default
// "0,300,1500") before each reply; 8 rounds. "First round over a later one" is the time from the
// first request's arrival to the second's, minus the median of rounds 2–7 (every round includes the
// TTFB, so it cancels); the same for the process's CPU time (user + system, from /proc at each
// request's arrival, 10 ms ticks), which a loaded machine disturbs less than the wall time, and the
// CPU from the first reply's sending to the next request (the round's critical path: what the
// warm-up did during the wait is not in it) over a later round's. Also
// start → first request (spawn to the first request at the server).
//
// Knobs: BENCH_CLIS (comma-separated dist/cli/main.js paths, alternated within each repetition;
// default this checkout's), BENCH_REPEAT (5), BENCH_TTFB_MS ("0,300,1500"), BENCH_MODEL (the model
// name sent, default "gpt-4o-mini": a catalog model, so the run has a price to look up),
// BENCH_FRESH_CACHE=1 (a new user cache folder for every run: the price cache is never warm; by
// default each build keeps one cache folder across its runs, warmed by one untimed run).
// Usage: BENCH_CLIS=/tmp/before/dist/cli/main.js,dist/cli/main.js node bench/first-round.bench.mjs
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLIS = (process.env.BENCH_CLIS ?? fileURLToPath(new URL('../dist/cli/main.js', import.meta.url))).split(',').map((p) => resolve(p));
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const TTFBS = (process.env.BENCH_TTFB_MS ?? '0,300,1500').split(',').map(Number);
const MODEL = process.env.BENCH_MODEL ?? 'gpt-4o-mini';
const FRESH_CACHE = process.env.BENCH_FRESH_CACHE === '1';
const ROUNDS = 8;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return NaN;
  }
}

function startServer(ttfb, pid) {
  const arrivals = [];
  const cpu = [];
  const replied = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push(performance.now());
      cpu.push(cpuOf(pid()));
      const i = arrivals.length;
      const reply = () => {
        replied.push(cpuOf(pid()));
        const send = (payload) => res.write(`data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: MODEL, ...payload })}\n\n`);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const call = i <= ROUNDS;
        const delta = call ? { tool_calls: [{ index: 0, id: `c${i}`, type: 'function', function: { name: 'calculator', arguments: JSON.stringify({ expression: `${i}+1` }) } }] } : { content: 'done' };
        send({ choices: [{ index: 0, delta, finish_reason: call ? 'tool_calls' : 'stop' }] });
        send({ choices: [], usage: { prompt_tokens: 100 * i, completion_tokens: 5, total_tokens: 100 * i + 5 } });
        res.end('data: [DONE]\n\n');
      };
      if (ttfb > 0) setTimeout(reply, ttfb);
      else reply();
    });
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, arrivals, cpu, replied, url: `http://127.0.0.1:${server.address().port}/v1` })));
}

async function run(cli, ttfb, cacheHome) {
  const home = mkdtempSync(join(tmpdir(), 'vibe-first-round-'));
  let child;
  const { server, arrivals, cpu, replied, url } = await startServer(ttfb, () => child?.pid);
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'c'), XDG_DATA_HOME: join(home, 'd'), XDG_CACHE_HOME: cacheHome ?? join(home, 'k'), OPENAI_API_KEY: 'x', OPENAI_BASE_URL: url, VIBE_MODEL: MODEL };
  const started = performance.now();
  child = spawn(process.execPath, [cli, 'go', '--tools', 'calculator', '--max-turns', String(ROUNDS + 2)], { cwd: home, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise((done) => child.on('close', done));
  server.close();
  rmSync(home, { recursive: true, force: true });
  if (code !== 0 || arrivals.length < ROUNDS) throw new Error(`${cli}: exit ${code}, ${arrivals.length} requests: ${stderr.slice(-1500)}`);
  const over = (times) => {
    const rounds = times.slice(1).map((at, i) => at - times[i]);
    return rounds[0] - median(rounds.slice(1, ROUNDS - 1));
  };
  // CPU from a reply's first byte to the next request: the round's own work, whatever the TTFB.
  const after = cpu.slice(1).map((at, i) => at - replied[i]);
  return { start: arrivals[0] - started, firstOver: over(arrivals), firstCpuOver: over(cpu), afterReplyOver: after[0] - median(after.slice(1, ROUNDS - 1)) };
}

console.log(`first-round.bench: node ${process.version}, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}, model ${MODEL}, ${FRESH_CACHE ? 'a fresh' : 'a warm'} price cache, median of ${REPEAT}\n`);
console.log('| build | TTFB ms | first round over a later one, ms | its CPU over a later one, ms | its CPU from the reply to the next request over a later round, ms | start → first request, ms |\n|---|---|---|---|---|---|');
const caches = CLIS.map(() => (FRESH_CACHE ? undefined : mkdtempSync(join(tmpdir(), 'vibe-first-round-cache-'))));
if (!FRESH_CACHE) for (const [i, cli] of CLIS.entries()) await run(cli, 0, caches[i]);
for (const ttfb of TTFBS) {
  const results = CLIS.map(() => ({ firstOver: [], firstCpuOver: [], afterReplyOver: [], start: [] }));
  for (let r = 0; r < REPEAT; r++) {
    for (const [i, cli] of CLIS.entries()) {
      const one = await run(cli, ttfb, caches[i]);
      results[i].firstOver.push(one.firstOver);
      results[i].firstCpuOver.push(one.firstCpuOver);
      results[i].afterReplyOver.push(one.afterReplyOver);
      results[i].start.push(one.start);
    }
  }
  for (const [i, cli] of CLIS.entries()) console.log(`| ${cli} | ${ttfb} | ${median(results[i].firstOver).toFixed(1)} | ${median(results[i].firstCpuOver).toFixed(0)} | ${median(results[i].afterReplyOver).toFixed(0)} | ${median(results[i].start).toFixed(0)} |`);
}
for (const cache of caches) if (cache) rmSync(cache, { recursive: true, force: true });
