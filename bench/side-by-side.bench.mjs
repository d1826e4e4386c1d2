// Our CLI against the raw-fetch reference loop (bench/raw-loop.mjs) and pi (@mariozechner/pi-coding-agent,
// pinned in pi-install.mjs), each spawned as a process against one local scripted server, alternating
// within each repetition: start → first request, per-round cost over 200 tool rounds (sessions on and
// off), the slowest of the first 15 rounds and the time to finish them, first-request tokens and peak RSS, each as a ratio to the
// raw loop. Milliseconds move with the machine's load; read the ratios. BENCH_REPEAT (default 3) sets
// the repetitions, BENCH_PI=0 leaves pi out, BENCH_BASE_CLI=…/dist/cli/main.js adds an older build.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { installPi, offlineEnv, PI_VERSION } from './pi-install.mjs';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const RAW = fileURLToPath(new URL('./raw-loop.mjs', import.meta.url));
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const ROUNDS = 200;
const FIRST_ROUNDS = 15;

function chunk(res, payload) {
  res.write(`data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: 'm', ...payload })}\n\n`);
}

const toolResults = (body) => body.messages.filter((m) => m.role === 'tool').length;

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
      const done = toolResults(parsed);
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
  const base = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.data'), OPENAI_API_KEY: 'x', OPENAI_BASE_URL: url, VIBE_MODEL: 'm' };
  const env = contender.prepare?.(home, url, base) ?? base;
  const timeFile = join(home, 'time.txt');
  const started = performance.now();
  // stderr goes to a file (read only on failure), so the bench's own event loop, which also serves the requests, does no extra work.
  const stderrFd = openSync(join(home, 'stderr.txt'), 'w');
  const child = spawn('/usr/bin/time', ['-o', timeFile, '-f', 'MAXRSS %M', process.execPath, ...contender.args(rounds)], { env, cwd: home, stdio: ['ignore', 'ignore', stderrFd] });
  const code = await new Promise((resolve) => child.on('close', resolve));
  closeSync(stderrFd);
  const time = readFileSync(timeFile, 'utf8');
  const stderr = readFileSync(join(home, 'stderr.txt'), 'utf8');
  server.close();
  rmSync(home, { recursive: true, force: true });
  // Every contender must make exactly rounds + 1 requests, the k-th carrying k tool results.
  const inStep = requests.every((r, k) => toolResults(r.body) === k);
  if (code !== 0 || requests.length !== rounds + 1 || !inStep) {
    throw new Error(`${contender.name}: exit ${code}, ${requests.length} requests for ${rounds} rounds${inStep ? '' : ' (tool results out of step)'}\n${stderr.slice(-2000)}${time}`);
  }
  return { requests, started, rssKB: Number(/MAXRSS (\d+)/.exec(time)?.[1]) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const gaps = (requests) => requests.slice(1).map((r, i) => r.at - requests[i].at);
const firstTokens = ({ body }) => countTokens(JSON.stringify(body.messages)) + countTokens(JSON.stringify(body.tools ?? []));

const UNBUNDLED = fileURLToPath(new URL('../dist/cli/main.unbundled.js', import.meta.url));
const BASE = process.env.BENCH_BASE_CLI;
const agent = (name, cli, flags, startOnly = false) => ({ name, startOnly, args: (r) => [cli, 'go', '--tools', 'calculator', '--max-turns', String(r + 5), ...flags] });

const PI_CALCULATOR = fileURLToPath(new URL('./pi-calculator.mjs', import.meta.url));

/** pi in print mode against the scripted server: a models.json in a fresh agent dir names it as an OpenAI-compatible provider. */
function piContender(name, cli, flags, startOnly = false) {
  return {
    name,
    startOnly,
    optional: true,
    prepare(home, url, env) {
      const agentDir = join(home, 'pi-agent');
      mkdirSync(agentDir);
      writeFileSync(join(agentDir, 'models.json'), JSON.stringify({ providers: { bench: { baseUrl: url, api: 'openai-completions', apiKey: 'x', models: [{ id: 'm' }] } } }));
      return offlineEnv({ ...env, PI_CODING_AGENT_DIR: agentDir });
    },
    args: () => [cli, '-p', '--offline', '--provider', 'bench', '--model', 'm', ...flags, 'go'],
  };
}

function contenders(pi) {
  return [
    { name: 'raw loop', args: () => [RAW, 'go'] },
    agent('vibe-agent, session off', CLI, ['--no-session']),
    agent('vibe-agent, session on', CLI, []),
    { name: 'vibe-agent, default tools', args: () => [CLI, 'go', '--no-session'], startOnly: true },
    ...(existsSync(UNBUNDLED) ? [agent('vibe-agent unbundled (tsc output)', UNBUNDLED, ['--no-session'], true)] : []),
    ...(BASE ? [agent('before, session off', BASE, ['--no-session']), agent('before, session on', BASE, [])] : []),
    ...(pi.cli
      ? [
          piContender(`pi ${PI_VERSION}, session off`, pi.cli, ['--no-builtin-tools', '-e', PI_CALCULATOR, '--no-session']),
          piContender(`pi ${PI_VERSION}, session on`, pi.cli, ['--no-builtin-tools', '-e', PI_CALCULATOR]),
          piContender(`pi ${PI_VERSION}, default tools`, pi.cli, ['--no-session'], true),
        ]
      : []),
  ];
}

/**
 * One repetition of one contender: a one-shot run (start, tokens, peak RSS), then unless start-only a
 * 200-round run, which gives a second start figure, the mean round and the slowest of its first 15
 * rounds (a contender cannot tell a 15-round run from the start of a 200-round one).
 */
async function measure(contender, into) {
  const oneShot = await runOnce(contender, 0);
  into.start.push(oneShot.requests[0].at - oneShot.started);
  into.rss.push(oneShot.rssKB / 1024);
  into.tokens = firstTokens(oneShot.requests[0]);
  if (contender.startOnly) return;
  const long = await runOnce(contender, ROUNDS);
  const roundTimes = gaps(long.requests);
  into.start.push(long.requests[0].at - long.started);
  into.perRound.push(roundTimes.reduce((a, b) => a + b, 0) / ROUNDS);
  into.slowest.push(Math.max(...roundTimes.slice(0, FIRST_ROUNDS)));
  // What a short task costs whole: the start, then 15 rounds with whatever loads at the first tool call.
  into.firstRounds.push(long.requests[FIRST_ROUNDS].at - long.started);
}

const ratio = (value, raw, digits) => `${value.toFixed(digits)} (${(value / raw).toFixed(2)}×)`;

export default async function sideBySide() {
  const began = performance.now();
  const pi = installPi();
  const notes = [];
  if (pi.skipped) notes.push(`pi left out: ${pi.skipped}`);
  let running = contenders(pi);
  const results = new Map(running.map((c) => [c.name, { start: [], rss: [], perRound: [], slowest: [], firstRounds: [], tokens: 0 }]));
  for (let i = 0; i < REPEAT; i++) {
    for (const contender of running) {
      try {
        await measure(contender, results.get(contender.name));
      } catch (error) {
        if (!contender.optional) throw error;
        notes.push(`${contender.name} left out: ${error.message.split('\n').slice(0, 3).join(' / ')}`);
        results.delete(contender.name);
        running = running.filter((c) => c !== contender);
      }
    }
  }
  const raw = results.get('raw loop');
  const [rawStart, rawRound, rawSlowest, rawFirstRounds, rawRss] = [median(raw.start), median(raw.perRound), median(raw.slowest), median(raw.firstRounds), median(raw.rss)];
  const rows = [...results].map(([name, r]) => ({
    contender: name,
    'start→1st request ms': ratio(median(r.start), rawStart, 0),
    [`ms/round (${ROUNDS})`]: r.perRound.length ? ratio(median(r.perRound), rawRound, 2) : '—',
    'over raw ms/round': r.perRound.length ? (median(r.perRound) - rawRound).toFixed(2) : '—',
    [`slowest of first ${FIRST_ROUNDS} ms`]: r.slowest.length ? ratio(median(r.slowest), rawSlowest, 1) : '—',
    [`start→${FIRST_ROUNDS} rounds done ms`]: r.firstRounds.length ? ratio(median(r.firstRounds), rawFirstRounds, 0) : '—',
    '1st request tokens': `${r.tokens} (${(r.tokens / raw.tokens).toFixed(1)}×)`,
    'peak RSS MB': ratio(median(r.rss), rawRss, 0),
  }));
  console.log(`\nSide by side against the raw-fetch loop on one local scripted server: medians of ${REPEAT} repetitions (start: of ${2 * REPEAT} where a 200-round run adds one); (N×) = N times the raw loop's figure`);
  console.table(rows);
  if (running.some((c) => c.optional)) console.log('pi has no calculator: its session rows load the same one as an extension (bench/pi-calculator.mjs), its default-tools row does not.');
  for (const note of notes) console.log(`Note: ${note}`);
  console.log(`(${((performance.now() - began) / 1000).toFixed(0)} s in all)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await sideBySide();
