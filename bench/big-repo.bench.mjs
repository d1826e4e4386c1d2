// Issue 38: the agent in a big repository and a long session, side by side with ripgrep (and pi
// where it is installed). Three parts, each printing ratios:
//  1. a generated 100k-file tree against an empty folder: a text-only run (first request, process
//     exit, peak RSS), a run whose first call is grep (its wait against `rg` alone), a run whose
//     first call writes a file (the first snapshot), and the checkpoint store's size on disk;
//  2. grep and list_files at 1k, 10k and 100k files against `rg` and `rg --files`;
//  3. CPU per round at rounds 1–50 and 950–1,000 of a 1,000-round session (the CLI's own CPU time,
//     read from /proc at each request), against the raw fetch loop.
// Knobs: BENCH_BIG_FILES (default 100000), BENCH_ROUNDS (1000), BENCH_REPEAT (3), BENCH_PARTS ("1,2,3"),
// BENCH_TTFB_MS (0: the scripted model's time to its first byte, each request),
// BENCH_BIG_COMMITTED (default 1: the big tree's files are committed, as in a real repository; 0: a
// fresh `git init` with nothing added, where the first snapshot must hash every file),
// BENCH_WRITES_ONLY=1 (part 1 runs only the first-write runs, in the three layouts: the workspace at
// the repository's top, in its subfolder src/ (which holds every file), and a plain folder: the same
// tree with its .git moved aside).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// BENCH_CLI: another build of this CLI (a copy of dist/ beside node_modules, so a rebuild during a run does not change it).
const CLI = process.env.BENCH_CLI ?? fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const RAW = fileURLToPath(new URL('./raw-loop.mjs', import.meta.url));
const BIG = Number(process.env.BENCH_BIG_FILES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const PARTS = new Set((process.env.BENCH_PARTS ?? '1,2,3').split(','));
const COMMITTED = process.env.BENCH_BIG_COMMITTED !== '0';
/** The scripted model's time to first byte, every request (a model thinks; the warm-up loads meanwhile). */
const TTFB_MS = Number(process.env.BENCH_TTFB_MS ?? 0);
const WRITES_ONLY = process.env.BENCH_WRITES_ONLY === '1';
const WORDS = ['value', 'result', 'handler', 'config', 'request', 'index', 'buffer', 'stream', 'token', 'render'];
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;

/** `count` files of 200–800 bytes in 100-file folders, a .gitignore'd build folder of a tenth as many, a rare needle in a few. */
async function makeTree(root, count) {
  mkdirSync(root, { recursive: true });
  execFileSync('git', ['init', '-q', root]);
  await writeFile(join(root, '.gitignore'), 'build/\n*.log\n');
  let state = 7;
  const next = () => ((state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const files = [];
  for (let i = 0; i < count; i++) files.push(`src/p${i % 50}/m${Math.floor(i / 5000)}/f${i}.ts`);
  for (let i = 0; i < count / 10; i++) files.push(`build/b${i % 20}/o${i}.js`);
  for (const dir of new Set(files.map((f) => f.slice(0, f.lastIndexOf('/'))))) await mkdir(join(root, dir), { recursive: true });
  for (let i = 0; i < files.length; i += 512) {
    await Promise.all(
      files.slice(i, i + 512).map((file, j) => {
        const lines = [];
        for (let size = 0; size < 200 + next() * 600; ) {
          const line = next() < 0.4 ? `export function ${WORDS[Math.floor(next() * 10)]}${i + j}() {` : `  return ${WORDS[Math.floor(next() * 10)]} + ${Math.floor(next() * 100)};`;
          lines.push(line);
          size += line.length + 1;
        }
        if ((i + j) % 20_000 === 7) lines.push('const zebraQuokka = 1;');
        return writeFile(join(root, file), `${lines.join('\n')}\n`);
      }),
    );
  }
}

/** A chat-completions server that plays `script(requestIndex, body)` → a tool call or an answer; notes each request's arrival and, if `pid()` names a process, its CPU time then. */
function startServer(script, pid = () => undefined) {
  const requests = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      requests.push({ at: performance.now(), cpuMs: cpuOf(pid()) });
      if (TTFB_MS > 0) setTimeout(() => reply(body), TTFB_MS);
      else reply(body);
    });
    const reply = (body) => {
      const step = script(requests.length - 1, JSON.parse(body));
      const send = (payload) => res.write(`data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: 'm', ...payload })}\n\n`);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const delta = step.call ? { tool_calls: [{ index: 0, id: `c${requests.length}`, type: 'function', function: { name: step.call, arguments: JSON.stringify(step.args) } }] } : { content: 'done' };
      send({ choices: [{ index: 0, delta, finish_reason: step.call ? 'tool_calls' : 'stop' }] });
      send({ choices: [], usage: { prompt_tokens: Math.round(body.length / 4), completion_tokens: 5, total_tokens: Math.round(body.length / 4) + 5 } });
      res.end('data: [DONE]\n\n');
    };
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, requests, url: `http://127.0.0.1:${server.address().port}/v1` })));
}

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
function cpuOf(pid) {
  if (!pid) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/** One CLI run in `cwd` against `script`: wall times from spawn (first request, each request, exit), peak RSS, the store's size. */
async function runCli(cwd, script, { args = [CLI, 'go'], command = process.execPath, direct = false, piDir } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'vibe-big-home-'));
  let child;
  const { server, requests, url } = await startServer(script, () => child?.pid);
  if (piDir) writeFileSync(join(piDir, 'models.json'), JSON.stringify({ providers: { bench: { baseUrl: url, api: 'openai-completions', apiKey: 'x', models: [{ id: 'm' }] } } }));
  const env = { ...process.env, ...(piDir ? { PI_CODING_AGENT_DIR: piDir, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' } : {}), HOME: home, XDG_CONFIG_HOME: join(home, 'c'), XDG_DATA_HOME: join(home, 'd'), XDG_CACHE_HOME: join(home, 'k'), OPENAI_API_KEY: 'x', OPENAI_BASE_URL: url, VIBE_MODEL: 'm' };
  const timeFile = join(home, 'time.txt');
  const started = performance.now();
  child = direct
    ? spawn(command, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] })
    : spawn('/usr/bin/time', ['-o', timeFile, '-f', 'MAXRSS %M', command, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  const exit = performance.now() - started;
  server.close();
  if (code !== 0) throw new Error(`exit ${code}: ${stderr.slice(-1500)}`);
  const rssMB = direct ? undefined : Number(/MAXRSS (\d+)/.exec(readFileSync(timeFile, 'utf8'))?.[1]) / 1024;
  const store = join(home, 'd', 'vibe-agent', 'checkpoints');
  const storeMB = existsSync(store) ? Number(execFileSync('du', ['-sk', store], { encoding: 'utf8' }).split('\t')[0]) / 1024 : 0;
  rmSync(home, { recursive: true, force: true });
  return { exit, requests: requests.map((r) => ({ at: r.at - started, cpuMs: r.cpuMs })), rssMB, storeMB };
}

function timeRg(args, cwd) {
  const started = performance.now();
  execFileSync('rg', args, { cwd, stdio: ['ignore', 'ignore', 'ignore'] });
  return performance.now() - started;
}

const BASE = process.env.BENCH_BASE_CLI;

async function bigTree() {
  const base = mkdtempSync(join(tmpdir(), 'vibe-big-'));
  const empty = join(base, 'empty');
  mkdirSync(empty);
  execFileSync('git', ['init', '-q', empty]);
  const big = join(base, 'big');
  const made = performance.now();
  await makeTree(big, BIG);
  if (COMMITTED) {
    const env = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' };
    execFileSync('git', ['add', '-A'], { cwd: big, env });
    // No automatic gc: it would go on in the background while the plain-folder runs move .git aside.
    execFileSync('git', ['-c', 'gc.auto=0', 'commit', '-qm', 'tree'], { cwd: big, env });
  }
  console.log(`generated ${BIG.toLocaleString('en')} files (+${(BIG / 10).toLocaleString('en')} ignored) in ${((performance.now() - made) / 1000).toFixed(1)} s`);
  const text = () => ({});
  const grepFirst = (i) => (i === 0 ? { call: 'grep', args: { pattern: 'zebraQuokka' } } : {});
  const writeFirst = (i) => (i === 0 ? { call: 'write_file', args: { path: 'new-file.txt', content: 'hello\n' } } : {});
  const builds = [['this build', CLI], ...(BASE ? [['before (BENCH_BASE_CLI)', BASE]] : [])];
  const { installPi, PI_VERSION } = await import('./pi-install.mjs');
  const pi = installPi();
  const runs = new Map();
  const add = (key, value) => runs.set(key, [...(runs.get(key) ?? []), value]);
  const layouts = [
    ['repository top', big],
    ['subfolder src/', join(big, 'src')],
    ['plain folder', big],
  ];
  for (let r = 0; r < REPEAT; r++) {
    for (const [name, cli] of builds) {
      if (!WRITES_ONLY) {
        for (const where of ['empty', 'big']) add(`${name} text ${where}`, await runCli(where === 'big' ? big : empty, text, { args: [cli, 'go'] }));
        add(`${name} grep`, await runCli(big, grepFirst, { args: [cli, 'go', '--yes'] }));
      }
      add(`${name} write empty`, await runCli(empty, writeFirst, { args: [cli, 'go', '--yes'] }));
      rmSync(join(empty, 'new-file.txt'), { force: true });
      for (const [layout, cwd] of layouts) {
        // The plain folder: the same tree with its .git moved aside for the run.
        if (layout === 'plain folder') execFileSync('mv', [join(big, '.git'), join(base, 'git-aside')]);
        try {
          add(`${name} write ${layout}`, await runCli(cwd, writeFirst, { args: [cli, 'go', '--yes'] }));
        } finally {
          if (layout === 'plain folder') execFileSync('mv', [join(base, 'git-aside'), join(big, '.git')]);
        }
        rmSync(join(cwd, 'new-file.txt'), { force: true });
      }
    }
    if (pi.cli && !WRITES_ONLY) {
      for (const where of ['empty', 'big']) {
        const agentDir = mkdtempSync(join(tmpdir(), 'vibe-big-pi-'));
        add(`pi text ${where}`, await runCli(where === 'big' ? big : empty, text, { args: [pi.cli, '-p', '--offline', '--no-session', '--provider', 'bench', '--model', 'm', 'go'], piDir: agentDir }));
        rmSync(agentDir, { recursive: true, force: true });
      }
    }
    const status = performance.now();
    execFileSync('git', ['status', '--porcelain'], { cwd: big, stdio: 'ignore' });
    add('git status', performance.now() - status);
    add('rg', timeRg(['--no-config', '--hidden', '--no-require-git', '--glob', '!.git', '--glob', '!node_modules', 'zebraQuokka', '.'], big));
  }
  const m = (key, pick) => median(runs.get(key).map(pick));
  const rgAlone = median(runs.get('rg'));
  console.log(`\n## ${BIG.toLocaleString('en')}-file tree (a git repository, ${COMMITTED ? 'its files committed' : 'nothing committed'}) vs an empty one (median of ${REPEAT}); \`git status\` there: ${median(runs.get('git status')).toFixed(0)} ms\n`);
  console.log('| build | measure | empty / rg alone | big tree | ratio | target |\n|---|---|---|---|---|---|');
  const row = (...cells) => console.log(`| ${cells.join(' | ')} |`);
  for (const [name] of builds) {
    if (!WRITES_ONLY) {
      const exit = (where) => m(`${name} text ${where}`, (x) => x.exit);
      row(name, 'text-only run: process exit, ms', exit('empty').toFixed(0), exit('big').toFixed(0), ratio(exit('big'), exit('empty')), '≤ 1.5×');
      row(name, 'text-only run: peak RSS, MB', m(`${name} text empty`, (x) => x.rssMB).toFixed(0), m(`${name} text big`, (x) => x.rssMB).toFixed(0), '', '< 200');
      const grepWait = m(`${name} grep`, (x) => x.requests[1].at - x.requests[0].at);
      row(name, 'first call grep: reply → next request, ms', rgAlone.toFixed(0), grepWait.toFixed(0), ratio(grepWait, rgAlone), '≤ 2×');
      row(name, 'grep run: exit ms / peak RSS MB / store MB', '', `${m(`${name} grep`, (x) => x.exit).toFixed(0)} / ${m(`${name} grep`, (x) => x.rssMB).toFixed(0)} / ${m(`${name} grep`, (x) => x.storeMB).toFixed(1)}`, '', 'RSS < 200');
    }
    const wait = (where) => m(`${name} write ${where}`, (x) => x.requests[1].at - x.requests[0].at);
    const w = (where) => `${m(`${name} write ${where}`, (x) => x.exit).toFixed(0)} / ${m(`${name} write ${where}`, (x) => x.rssMB).toFixed(0)} / ${m(`${name} write ${where}`, (x) => x.storeMB).toFixed(1)}`;
    for (const [layout] of layouts) {
      row(name, `${layout}: first call write_file, reply → next request, ms`, wait('empty').toFixed(0), wait(layout).toFixed(0), ratio(wait(layout), wait('empty')), '—');
      row(name, `${layout}: write run: exit ms / peak RSS MB / store MB`, w('empty'), w(layout), '', 'RSS < 200');
    }
  }
  if (pi.cli && !WRITES_ONLY) {
    const exit = (where) => m(`pi text ${where}`, (x) => x.exit);
    row(`pi ${PI_VERSION}`, 'text-only run: process exit, ms', exit('empty').toFixed(0), exit('big').toFixed(0), ratio(exit('big'), exit('empty')), '—');
    row(`pi ${PI_VERSION}`, 'text-only run: peak RSS, MB', m('pi text empty', (x) => x.rssMB).toFixed(0), m('pi text big', (x) => x.rssMB).toFixed(0), '', '—');
  } else console.log(`(pi left out: ${pi.skipped})`);
  return base;
}

async function searchSizes() {
  const { createSearchTools, ToolRegistry } = await import('../dist/index.js');
  const { walkFlags } = await import('../dist/tools/coding/search/rg-grep.js');
  // BENCH_BASE_CLI's library beside ours (its dist/index.js), same trees, alternating.
  const baseLibrary = BASE ? await import(new URL('../index.js', pathToFileURL(BASE)).href) : undefined;
  console.log('\n## grep and list_files against ripgrep (median of 5 after a warm-up; in-process, through the registry)\n');
  console.log(`| files | case | rg ms | ours ms | ratio (target ≤ 1.3 at 100k) |${baseLibrary ? ' before ms | before ratio |' : ''}\n|---|---|---|---|---|${baseLibrary ? '---|---|' : ''}`);
  for (const size of [1_000, 10_000, BIG]) {
    const base = mkdtempSync(join(tmpdir(), 'vibe-big-search-'));
    await makeTree(base, size);
    const registry = new ToolRegistry(createSearchTools({ ripgrep: 'auto' }));
    const baseRegistry = baseLibrary && new baseLibrary.ToolRegistry(baseLibrary.createSearchTools({ ripgrep: 'auto' }));
    const cases = [
      { name: 'grep rare literal', tool: 'grep', args: { pattern: 'zebraQuokka' }, rg: [...walkFlags(), 'zebraQuokka', '.'] },
      { name: 'grep common word (capped at 200)', tool: 'grep', args: { pattern: 'return' }, rg: [...walkFlags(), 'return', '.'] },
      { name: 'list_files', tool: 'list_files', args: {}, rg: ['--files', ...walkFlags(), '.'] },
    ];
    const invoke = async (reg, c) => {
      const started = performance.now();
      const result = await reg.invoke({ id: 'c', name: c.tool, arguments: JSON.stringify(c.args) }, { workspace: base });
      if (result.isError) throw new Error(result.content);
      return performance.now() - started;
    };
    for (const c of cases) {
      const ours = [];
      const rg = [];
      const before = [];
      for (let i = 0; i < 6; i++) {
        const t = await invoke(registry, c);
        if (i > 0) ours.push(t);
        const r = timeRg(c.rg, base);
        if (i > 0) rg.push(r);
        if (baseRegistry) {
          const b = await invoke(baseRegistry, c);
          if (i > 0) before.push(b);
        }
      }
      const beforeCells = baseRegistry ? ` ${median(before).toFixed(0)} | ${ratio(median(before), median(rg))} |` : '';
      console.log(`| ${size.toLocaleString('en')} | ${c.name} | ${median(rg).toFixed(0)} | ${median(ours).toFixed(0)} | ${ratio(median(ours), median(rg))} |${beforeCells}`);
    }
    rmSync(base, { recursive: true, force: true });
  }
}

async function longSession() {
  const calc = (i) => (i < ROUNDS ? { call: 'calculator', args: { expression: `${i}+1` } } : {});
  const { installPi, PI_VERSION } = await import('./pi-install.mjs');
  const pi = installPi();
  const contenders = [
    { name: 'raw loop', args: [RAW, 'go'] },
    { name: 'vibe-agent, session on', args: [CLI, 'go', '--tools', 'calculator', '--max-turns', String(ROUNDS + 5)] },
    ...(BASE ? [{ name: 'before (BENCH_BASE_CLI), session on', args: [BASE, 'go', '--tools', 'calculator', '--max-turns', String(ROUNDS + 5)] }] : []),
    ...(pi.cli ? [{ name: `pi ${PI_VERSION}, session on`, pi: true, args: [pi.cli, '-p', '--offline', '--provider', 'bench', '--model', 'm', '--no-builtin-tools', '-e', fileURLToPath(new URL('./pi-calculator.mjs', import.meta.url)), 'go'] }] : []),
  ];
  console.log(`\n## CPU per round over a ${ROUNDS}-round session (the process's own user+system time between requests; median of ${REPEAT})\n`);
  console.log('| contender | rounds 1–50 ms | rounds ' + (ROUNDS - 50) + '–' + ROUNDS + ' ms | late / early (target ≤ 1.2) | wall per round ms | first tool round over a later one, ms (target < 40) |\n|---|---|---|---|---|---|');
  const cwd = mkdtempSync(join(tmpdir(), 'vibe-big-long-'));
  for (const c of contenders) {
    const early = [];
    const late = [];
    const wall = [];
    const firstOver = [];
    for (let r = 0; r < REPEAT; r++) {
      const piDir = c.pi ? mkdtempSync(join(tmpdir(), 'vibe-big-pi-')) : undefined;
      const run = await runCli(cwd, calc, { args: c.args, direct: true, ...(piDir ? { piDir } : {}) });
      if (piDir) rmSync(piDir, { recursive: true, force: true });
      const q = run.requests;
      early.push((q[50].cpuMs - q[0].cpuMs) / 50);
      // The raw loop stops at 1,000 requests (999 rounds): its last 50 are the window it has.
      const end = Math.min(ROUNDS, q.length - 1);
      late.push((q[end].cpuMs - q[end - 50].cpuMs) / 50);
      wall.push((q[end].at - q[0].at) / end);
      // The first tool round (its tool's code loads then) over the median of rounds 2–50.
      firstOver.push(q[1].at - q[0].at - median(q.slice(2, 51).map((x, i) => x.at - q[i + 1].at)));
    }
    console.log(`| ${c.name} | ${median(early).toFixed(2)} | ${median(late).toFixed(2)} | ${ratio(median(late), median(early))} | ${median(wall).toFixed(2)} | ${median(firstOver).toFixed(1)} |`);
  }
  rmSync(cwd, { recursive: true, force: true });
}

console.log(`big-repo.bench: node ${process.version}, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
// Retries: git may still be writing in the big tree's .git (an automatic gc after the commit) as it is removed.
if (PARTS.has('1')) rmSync(await bigTree(), { recursive: true, force: true, maxRetries: 5, retryDelay: 1000 });
if (PARTS.has('2')) await searchSizes();
if (PARTS.has('3')) await longSession();
