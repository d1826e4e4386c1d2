// Background sessions: the time from running `vibe-agent --bg "task"` to the model receiving the
// session's first request (cold: the server starts first; warm: it is running), and the session
// server's RSS with 10 background sessions, each in its own worktree, after their runs.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const SESSIONS = 10;
const WARM_RUNS = 5;

let onRequest = () => undefined;
let answered = 0;
function sse(res, delta, finish) {
  res.write(`data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
}
const model = createServer((req, res) => {
  onRequest();
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    sse(res, { role: 'assistant', content: 'done' }, null);
    sse(res, {}, 'stop');
    res.end('data: [DONE]\n\n');
    answered++;
  });
});
await new Promise((resolve) => model.listen(0, '127.0.0.1', resolve));

const root = mkdtempSync(join(tmpdir(), 'vibe-bg-bench-'));
const repo = join(root, 'repo');
execFileSync('sh', ['-c', `mkdir -p ${repo} && cd ${repo} && git init -q -b main && git -c user.email=b@b -c user.name=b commit -q --allow-empty -m start`]);
writeFileSync(join(repo, 'a.txt'), 'a\n');
const env = {
  PATH: process.env.PATH,
  HOME: join(root, 'home'),
  XDG_CONFIG_HOME: join(root, 'config'),
  XDG_DATA_HOME: join(root, 'data'),
  XDG_STATE_HOME: join(root, 'state'),
  OPENAI_API_KEY: 'bench',
  OPENAI_BASE_URL: `http://127.0.0.1:${model.address().port}/v1`,
  VIBE_MODEL: 'bench-model',
  NO_COLOR: '1',
};

/** ms from spawning `--bg` to the model's first request from that session, and to `--bg` returning. */
function bg(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let requestMs;
    let returnedMs;
    const finish = () => requestMs !== undefined && returnedMs !== undefined && resolve({ requestMs, returnedMs });
    onRequest = () => {
      requestMs ??= performance.now() - started;
      finish();
    };
    const child = spawn(process.execPath, [CLI, '--bg', ...args], { cwd: repo, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`--bg exited ${code}: ${err}`));
      returnedMs = performance.now() - started;
      finish();
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cold = await bg(['-w', 'cold', 'task']);
const warm = [];
for (let i = 0; i < WARM_RUNS; i++) warm.push(await bg(['-w', `warm${i}`, 'task']));
const address = JSON.parse(readFileSync(join(env.XDG_DATA_HOME, 'vibe-agent', 'serve', 'address.json'), 'utf8'));
for (let i = WARM_RUNS + 1; i < SESSIONS; i++) await bg(['-w', `more${i}`, 'task']);
while (answered < SESSIONS) await new Promise((resolve) => setTimeout(resolve, 50));
await new Promise((resolve) => setTimeout(resolve, 500));
const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${address.pid}/status`, 'utf8'))[1]) / 1024;
console.log(`--bg → first request, cold (server starts): ${cold.requestMs.toFixed(0)} ms; --bg returned after ${cold.returnedMs.toFixed(0)} ms`);
console.log(`--bg → first request, warm (median of ${WARM_RUNS}): ${median(warm.map((w) => w.requestMs)).toFixed(0)} ms; --bg returned after ${median(warm.map((w) => w.returnedMs)).toFixed(0)} ms`);
console.log(`server RSS with ${SESSIONS} background sessions in worktrees (runs ended): ${rss.toFixed(1)} MB`);
process.kill(address.pid, 'SIGTERM');
model.close();
rmSync(root, { recursive: true, force: true });
