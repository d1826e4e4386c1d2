// Listing 1,000 foreign sessions (250 per agent, ~12 prompts each) for one workspace: `vibe-agent import` with no argument.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findForeignSessions } from '../dist/session/import/find-foreign-sessions.js';

const root = mkdtempSync(join(tmpdir(), 'vibe-import-bench-'));
const home = join(root, 'home');
const workspace = join(root, 'ws');
mkdirSync(workspace, { recursive: true });
const real = realpathSync(workspace);
const line = (value) => JSON.stringify(value);
const turns = 12;
const pad = 'x'.repeat(400);
const dirs = {
  claude: join(home, '.claude', 'projects', real.replace(/[^a-zA-Z0-9]/g, '-')),
  codex: join(home, '.codex', 'sessions', '2026', '11', '02'),
  gemini: join(home, '.gemini', 'tmp', createHash('sha256').update(real).digest('hex'), 'chats'),
  pi: join(home, '.pi', 'agent', 'sessions', `--${real.replace(/^\//, '').replace(/\//g, '-')}--`),
};
for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
for (let i = 0; i < 250; i++) {
  const cc = [], cx = [line({ type: 'session_meta', payload: { id: `s${i}`, cwd: real, cli_version: '0.104.0' } })], gm = [line({ sessionId: `g${i}`, projectHash: 'h', startTime: '2026-11-01T00:00:00Z' })], pi = [line({ type: 'session', version: 3, id: `p${i}`, cwd: real })];
  for (let t = 0; t < turns; t++) {
    cc.push(line({ type: 'user', uuid: `u${t}`, parentUuid: t ? `a${t - 1}` : null, message: { role: 'user', content: `prompt ${t} ${pad}` } }), line({ type: 'assistant', uuid: `a${t}`, parentUuid: `u${t}`, message: { id: `m${t}`, role: 'assistant', content: [{ type: 'text', text: pad }] } }));
    cx.push(line({ type: 'event_msg', payload: { type: 'user_message', message: `prompt ${t}` } }), line({ type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: pad }] } }));
    gm.push(line({ id: `u${t}`, type: 'user', content: `prompt ${t} ${pad}` }), line({ id: `a${t}`, type: 'gemini', content: pad }));
    pi.push(line({ type: 'message', id: `u${t}`, parentId: t ? `a${t - 1}` : null, message: { role: 'user', content: `prompt ${t} ${pad}` } }), line({ type: 'message', id: `a${t}`, parentId: `u${t}`, message: { role: 'assistant', content: [{ type: 'text', text: pad }] } }));
  }
  const id = `0000${i}`.slice(-4);
  writeFileSync(join(dirs.claude, `c1a0de00-0000-4000-8000-00000000${id}.jsonl`), `${cc.join('\n')}\n`);
  writeFileSync(join(dirs.codex, `rollout-2026-11-02T09-00-00-0190c0de-0000-7000-8000-00000000${id}.jsonl`), `${cx.join('\n')}\n`);
  writeFileSync(join(dirs.gemini, `session-2026-11-03T08-00-${id}.jsonl`), `${gm.join('\n')}\n`);
  writeFileSync(join(dirs.pi, `2026-11-04T07-00-00-000Z_${id}.jsonl`), `${pi.join('\n')}\n`);
}
const env = { HOME: home };
const times = [];
let count = 0;
for (let run = 0; run < 7; run++) {
  const start = performance.now();
  count = findForeignSessions(workspace, env).length;
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
console.log(`import listing: ${count} sessions, first (cold) ${times.at(-1).toFixed(0)} ms worst, median ${times[3].toFixed(0)} ms of 7`);
rmSync(root, { recursive: true, force: true });
