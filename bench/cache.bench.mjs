// Prompt-cache cost: our CLI and pi (pinned in pi-install.mjs) run the same scripted sessions against
// one local server (bench/cache-session-server.mjs) on the Anthropic and the OpenAI wire; every
// request body is logged and billed as the provider bills it with its prompt cache
// (bench/prompt-cache.mjs: reads 10% of the input price, Anthropic writes 125%, OpenAI prefixes of
// 1,024+ tokens in 128-token steps, Anthropic only up to cache_control breakpoints). Sessions: 15
// short tool rounds; 60 rounds each reading a 20 KB file (200k window on Anthropic, 128k on OpenAI);
// 8 rounds, then 7 more resumed with --continue; short sessions summed over 8 task-text lengths (see ALIGNMENTS). Each agent has its own coding tools (and a calculator). "billed" is in input-token equivalents (uncached
// 1, read 0.1, written 1.25). `npm run bench:cache`; BENCH_PI=0 leaves pi out, BENCH_CACHE_ONLY=openai (or a session's name) runs only the sessions that match.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSessionServer } from './cache-session-server.mjs';
import { installPi, offlineEnv, PI_VERSION } from './pi-install.mjs';
import { billSession, dollarsOf, tokensOf } from './prompt-cache.mjs';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const PI_CALCULATOR = fileURLToPath(new URL('./pi-calculator.mjs', import.meta.url));
// Both read from cache at 10% of the input price, as the issue's figures assume.
const MODELS = { anthropic: 'claude-sonnet-4-5', openai: 'gpt-5' };
const FILE_BYTES = 20 * 1024;
/** Input-token equivalents: what one token costs relative to an uncached one. */
const UNIT_PRICE = { input: 1_000_000, cachedInput: 100_000, cacheWrite5m: 1_250_000, cacheWrite1h: 2_000_000 };

const SESSIONS = [
  { name: '15 short tool rounds', wire: 'anthropic', kind: 'short', rounds: 15 },
  { name: '15 short tool rounds', wire: 'openai', kind: 'short', rounds: 15 },
  { name: '60 rounds × 20 KB, 200k window', wire: 'anthropic', kind: 'files', rounds: 60, window: 200_000 },
  { name: '60 rounds × 20 KB, 128k window', wire: 'openai', kind: 'files', rounds: 60, window: 128_000 },
  { name: '8 rounds + 7 after --continue', wire: 'anthropic', kind: 'short', rounds: 8, resume: 7 },
  { name: '8 rounds + 7 after --continue', wire: 'openai', kind: 'short', rounds: 8, resume: 7 },
];

/** The k-th round's call: the calculator, or read the k-th 20 KB file with whichever read tool the agent offers. */
function callFor(kind) {
  return (round, toolNames) => {
    if (kind === 'short') return { name: 'calculator', arguments: { expression: `${round}+1` } };
    const name = toolNames.includes('read_file') ? 'read_file' : 'read';
    return { name, arguments: { path: `file-${round + 1}.txt` } };
  };
}

function writeFiles(dir, count) {
  for (let k = 1; k <= count; k++) {
    const lines = [];
    for (let n = 1; lines.join('\n').length < FILE_BYTES - 120; n++) lines.push(`file ${k} line ${n}: ${'value '.repeat(8)}${(k * 7919 + n * 104729) % 1000003}`);
    writeFileSync(join(dir, `file-${k}.txt`), `${lines.join('\n')}\n`.slice(0, FILE_BYTES));
  }
}

const vibe = {
  name: 'Vibe',
  env: (wire, url, home) => ({ ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.data'), ...(wire === 'anthropic' ? { ANTHROPIC_API_KEY: 'x', ANTHROPIC_BASE_URL: url } : { OPENAI_API_KEY: 'x', OPENAI_BASE_URL: `${url}/v1` }) }),
  args(session, { resume, prompt }) {
    // Each agent's own coding tools (their schemas are a real prefix), plus the calculator for the short rounds.
    const tools = session.kind === 'short' ? 'coding,calculator' : 'coding';
    return [CLI, prompt, '--provider', session.wire, '--model', MODELS[session.wire], '--tools', tools, '--max-turns', String(session.rounds + 10), ...(session.window ? ['--context-window', String(session.window)] : []), ...(session.resume ? (resume ? ['--continue'] : []) : ['--no-session'])];
  },
};

function piContender(cli) {
  return {
    name: `pi ${PI_VERSION}`,
    env(wire, url, home, session) {
      const agentDir = join(home, 'pi-agent');
      mkdirSync(agentDir, { recursive: true });
      const model = { id: MODELS[wire], contextWindow: session.window ?? 200_000, maxTokens: 8_192 };
      const provider = wire === 'anthropic' ? { baseUrl: url, api: 'anthropic-messages', apiKey: 'x', models: [model] } : { baseUrl: `${url}/v1`, api: 'openai-completions', apiKey: 'x', models: [model] };
      writeFileSync(join(agentDir, 'models.json'), JSON.stringify({ providers: { bench: provider } }));
      return offlineEnv({ ...process.env, HOME: home, PI_CODING_AGENT_DIR: agentDir });
    },
    args(session, { resume, prompt }) {
      const tools = session.kind === 'short' ? ['-e', PI_CALCULATOR] : [];
      return [cli, '-p', '--offline', '--provider', 'bench', '--model', MODELS[session.wire], ...tools, ...(session.resume ? (resume ? ['--continue'] : []) : ['--no-session']), prompt];
    },
  };
}

function runProcess(args, env, cwd) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** One contender through one session: its logged requests, billed, and the first resumed request's reads. */
async function runSession(contender, session, pad = 0) {
  const home = mkdtempSync(join(tmpdir(), 'vibe-cache-bench-'));
  const work = join(home, 'work');
  mkdirSync(work);
  if (session.kind === 'files') writeFiles(work, session.rounds);
  const { server, requests, url } = await startSessionServer({ rounds: session.rounds, call: callFor(session.kind) });
  try {
    const env = contender.env(session.wire, url, home, session);
    const first = await runProcess(contender.args(session, { resume: false, prompt: `Work through the steps.${padding(pad)}` }), env, work);
    if (first.code !== 0) throw new Error(`${contender.name}, ${session.name} (${session.wire}): exit ${first.code}\n${first.stderr.slice(-1500)}`);
    let resumedAt;
    if (session.resume) {
      resumedAt = requests.length;
      // The same script once more for the resumed task: `rounds` counts from the newest prompt.
      const second = await runProcess(contender.args(session, { resume: true, prompt: 'Now the next steps.' }), env, work);
      if (second.code !== 0) throw new Error(`${contender.name}, ${session.name} --continue: exit ${second.code}\n${second.stderr.slice(-1500)}`);
    }
    const billed = billSession(requests.map((r) => ({ provider: r.provider, body: r.body, at: r.at })));
    const resumed = resumedAt !== undefined ? billed.outcomes[resumedAt] : undefined;
    const previous = resumedAt !== undefined ? billed.outcomes[resumedAt - 1] : undefined;
    if (process.env.BENCH_CACHE_DUMP) for (const [i, o] of billed.outcomes.entries()) console.error(contender.name, i, o.ok ? JSON.stringify(o.usage) : o.message);
    return {
      requests: requests.length,
      totals: billed.totals,
      readShare: billed.readShare,
      billed: dollarsOf({ ...billed.totals, outputTokens: 0 }, UNIT_PRICE),
      floor: session.kind === 'files' ? floorOf(requests, session.wire) : undefined,
      resumed: resumed?.ok ? { read: resumed.usage.cachedInputTokens, of: resumed.usage.inputTokens, before: previous?.ok ? previous.usage.inputTokens : 0 } : undefined,
    };
  } finally {
    server.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * The least any agent could be billed for the session: every tool output it sent paid once,
 * uncached (OpenAI) or as a write (Anthropic), and the first request's prompt likewise.
 */
function floorOf(requests, wire) {
  const write = wire === 'anthropic' ? 1.25 : 1;
  const seen = new Set();
  let tokens = 0;
  for (const { body } of requests) {
    for (const text of toolOutputs(wire, body)) {
      if (seen.has(text.id)) continue;
      seen.add(text.id);
      tokens += tokensOf(text.content);
    }
  }
  return Math.round((tokens + tokensOf(requests[0].body.tools ?? []) + tokensOf(requests[0].body.system ?? '')) * write);
}

function toolOutputs(wire, body) {
  if (wire === 'openai') return body.messages.filter((m) => m.role === 'tool').map((m) => ({ id: m.tool_call_id, content: m.content }));
  return body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result').map((b) => ({ id: b.tool_use_id, content: b.content })) : []));
}

/**
 * OpenAI caches in 128-token steps, so where one agent's prompt happens to end against a step
 * boundary moves a short session's bill by a few percent either way. Short sessions therefore run
 * ALIGNMENTS times, the task text padded by about 16 more tokens each time (the same text for both
 * agents), and the cells sum the runs: the ratio no longer rests on one boundary's luck.
 */
const ALIGNMENTS = Number(process.env.BENCH_CACHE_ALIGNMENTS ?? 8);
const padding = (pad) => (pad ? ` Notes: ${'please be exact. '.repeat(pad * 4).trim()}` : '');

async function runAligned(contender, session) {
  if (session.kind !== 'short') return runSession(contender, session);
  const runs = [];
  for (let pad = 0; pad < ALIGNMENTS; pad++) runs.push(await runSession(contender, session, pad));
  const totals = {};
  for (const run of runs) for (const [key, value] of Object.entries(run.totals)) totals[key] = (totals[key] ?? 0) + value;
  return {
    requests: runs.reduce((sum, run) => sum + run.requests, 0),
    totals,
    readShare: totals.inputTokens ? totals.cachedInputTokens / totals.inputTokens : 0,
    billed: runs.reduce((sum, run) => sum + run.billed, 0),
    resumed: runs[0].resumed,
    spread: runs.map((run) => run.billed),
  };
}

const k = (n) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(Math.round(n)));
const cell = (r) => `${k(r.totals.inputTokens)} / ${Math.round(r.readShare * 100)}% / ${k(r.totals.cacheWriteTokens)} / ${k(r.billed)}`;

export default async function cacheBench() {
  const pi = installPi();
  const contenders = [vibe, ...(pi.cli ? [piContender(pi.cli)] : [])];
  console.log(`\n## Prompt cache: Vibe vs ${pi.cli ? `pi ${PI_VERSION}` : `(pi left out: ${pi.skipped})`}\n`);
  console.log('Each cell: tokens sent / share read from cache / written / billed (input-token equivalents: uncached 1, read 0.1, written 1.25).\n');
  console.log(`| session | wire | Vibe | ${pi.cli ? 'pi' : '—'} | Vibe ÷ pi |`);
  console.log('|---|---|---|---|---|');
  const notes = [];
  for (const session of SESSIONS.filter((s) => !process.env.BENCH_CACHE_ONLY || `${s.name} ${s.wire}`.includes(process.env.BENCH_CACHE_ONLY))) {
    const results = [];
    for (const contender of contenders) results.push(await runAligned(contender, session));
    const [ours, theirs] = results;
    console.log(`| ${session.name} | ${session.wire} | ${cell(ours)} | ${theirs ? cell(theirs) : '—'} | ${theirs ? `${(ours.billed / theirs.billed).toFixed(3)}×` : '—'} |`);
    if (ours.spread && theirs?.spread) notes.push(`${session.name} (${session.wire}): summed over ${ALIGNMENTS} task-text lengths; Vibe ÷ pi per length ${ours.spread.map((bill, i) => (bill / theirs.spread[i]).toFixed(3)).join(', ')}.`);
    if (ours.floor) notes.push(`${session.name} (${session.wire}): floor ${k(ours.floor)} (every output Vibe sent paid once, ${session.wire === 'anthropic' ? 'as a write' : 'uncached'}); Vibe billed ${k(ours.billed)}, ${(ours.billed / ours.floor).toFixed(2)}× the floor.`);
    for (const [i, r] of results.entries()) {
      if (r.resumed) notes.push(`${session.name} (${session.wire}), ${contenders[i].name}: the first request after --continue read ${k(r.resumed.read)} of ${k(r.resumed.of)} tokens from cache (the last request before it sent ${k(r.resumed.before)}).`);
    }
  }
  console.log('');
  for (const note of notes) console.log(`- ${note}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await cacheBench();
