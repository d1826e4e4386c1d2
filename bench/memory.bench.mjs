// Peak RSS of long sessions: the built CLI, sessions on, against a local scripted server that has
// the model call read_file on a 20 KB file every turn (a 20 KB tool output per turn), for 25, 50
// and 100 turns. The target: ≤ 200 MB at 100 turns, and no growth per turn beyond what the
// history itself holds (the last column: extra RSS per turn against the history's bytes per turn).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const OUTPUT_BYTES = 20 * 1024;

function chunk(res, payload) {
  res.write(`data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: 'm', ...payload })}\n\n`);
}

function startServer(turns) {
  let requests = 0;
  let lastBodyBytes = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      requests++;
      lastBodyBytes = body.length;
      const done = JSON.parse(body).messages.filter((m) => m.role === 'tool').length;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const choice = (delta, finish) => ({ choices: [{ index: 0, delta, finish_reason: finish }] });
      if (done >= turns) chunk(res, choice({ content: 'done' }, 'stop'));
      else chunk(res, choice({ tool_calls: [{ index: 0, id: `c${done}`, type: 'function', function: { name: 'read_file', arguments: `{"path":"out${done % 10}.txt"}` } }] }, 'tool_calls'));
      chunk(res, { choices: [], usage: { prompt_tokens: Math.round(body.length / 4), completion_tokens: 5, total_tokens: Math.round(body.length / 4) + 5 } });
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/v1`, stats: () => ({ requests, lastBodyBytes }) })));
}

async function runTurns(turns) {
  const { server, url, stats } = await startServer(turns);
  const home = mkdtempSync(join(tmpdir(), 'vibe-mem-'));
  const workspace = join(home, 'ws');
  mkdirSync(workspace);
  // Ten distinct files of 20 KB of numbered lines, so no output is a repeat the policy could fold.
  for (let i = 0; i < 10; i++) writeFileSync(join(workspace, `out${i}.txt`), Array.from({ length: 400 }, (_, n) => `file ${i} line ${n} ${'x'.repeat(38)}`).join('\n').slice(0, OUTPUT_BYTES));
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.data'), OPENAI_API_KEY: 'x', OPENAI_BASE_URL: url, VIBE_MODEL: 'm' };
  const timeFile = join(home, 'time.txt');
  const args = [CLI, 'read them', '--max-turns', String(turns + 5), '--context-window', '10000000', '--tools', 'read_file'];
  const child = spawn('/usr/bin/time', ['-o', timeFile, '-f', 'MAXRSS %M', process.execPath, ...args], { env, cwd: workspace, stdio: 'ignore' });
  const code = await new Promise((resolve) => child.on('close', resolve));
  const rssMB = Number(/MAXRSS (\d+)/.exec(readFileSync(timeFile, 'utf8'))?.[1]) / 1024;
  server.close();
  rmSync(home, { recursive: true, force: true });
  const { requests, lastBodyBytes } = stats();
  if (code !== 0 || requests !== turns + 1) throw new Error(`exit ${code}, ${requests} requests for ${turns} turns`);
  return { rssMB, lastBodyBytes };
}

export default async function memory() {
  const rows = [];
  let previous;
  for (const turns of [25, 50, 100]) {
    const { rssMB, lastBodyBytes } = await runTurns(turns);
    const row = { turns, 'peak RSS MB': rssMB.toFixed(0), 'last request MB': (lastBodyBytes / 2 ** 20).toFixed(1), target: turns === 100 ? '≤ 200' : '' };
    if (previous) {
      const perTurnKB = ((rssMB - previous.rssMB) * 1024) / (turns - previous.turns);
      const historyPerTurnKB = (lastBodyBytes - previous.lastBodyBytes) / 1024 / (turns - previous.turns);
      Object.assign(row, { 'RSS KB per added turn': perTurnKB.toFixed(0), 'history KB per turn': historyPerTurnKB.toFixed(0) });
    }
    rows.push(row);
    previous = { turns, rssMB, lastBodyBytes };
  }
  console.log('\nPeak RSS of a session with a 20 KB tool output per turn (sessions on, built CLI)');
  console.table(rows);
}

if (import.meta.url === `file://${process.argv[1]}`) await memory();
