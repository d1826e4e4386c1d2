// The tool-choice eval suite (eval/tool-search: ten tasks, each needing the right one of 200
// similar MCP tools) run by `vibe-agent eval` with and without deferral, against the scripted
// chooser (test/support/tool-choice-model.mjs) behind the scripted session server. No real model
// runs here: the accuracy is that of the search and a naive word-overlap chooser. For a model:
// see eval/tool-search/README.md. `node bench/tool-search-eval.mjs` after `npm run build`.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSessionServer } from './cache-session-server.mjs';
import { toolChoiceCall } from '../test/support/tool-choice-model.mjs';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const SERVER = fileURLToPath(new URL('../test/support/mcp-many-tools-server.mjs', import.meta.url));
const SUITE = fileURLToPath(new URL('../eval/tool-search', import.meta.url));
const DOMAINS = ['crm', 'billing', 'calendar', 'tickets', 'inventory'];

function runProcess(args, env, cwd) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.resume();
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

async function evalRun(mode) {
  const home = mkdtempSync(join(tmpdir(), 'vibe-tool-choice-'));
  mkdirSync(join(home, '.config', 'vibe-agent'), { recursive: true });
  const mcpServers = Object.fromEntries(DOMAINS.map((domain) => [domain, { command: process.execPath, args: [SERVER, '--domain', domain, '--log-calls'] }]));
  writeFileSync(join(home, '.config', 'vibe-agent', 'config.json'), JSON.stringify({ mcpServers }));
  const { server, requests, url } = await startSessionServer({ rounds: mode === 'always' ? 2 : 1, call: toolChoiceCall });
  try {
    const out = join(home, 'results.jsonl');
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.data'), OPENAI_API_KEY: 'x', VIBE_TOOL_SEARCH: mode, VIBE_MCP_WAIT: '60' };
    const ran = await runProcess([CLI, 'eval', '--suite', SUITE, '--base-url', `${url}/v1`, '--model', 'scripted-chooser', '--context-window', '200000', '--min-pass', '0', '-o', out], env, home);
    if (ran.code !== 0) throw new Error(`eval (${mode}): exit ${ran.code}\n${ran.stderr.slice(-1500)}`);
    const results = readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line)).filter((r) => r.type === 'result');
    const first = requests.find((r) => r.provider === 'openai');
    return { passed: results.filter((r) => r.passed).length, of: results.length, failures: results.filter((r) => !r.passed).map((r) => `${r.task}: ${r.reason}`), firstRequestChars: JSON.stringify(first.body).length };
  } finally {
    server.close();
    rmSync(home, { recursive: true, force: true });
  }
}

export default async function toolChoiceEval() {
  console.log('\n## Tool choice: 10 tasks, 200 similar MCP tools (scripted chooser, not a model)\n');
  console.log('| offer | tasks right | first request (characters) |');
  console.log('|---|---|---|');
  const notes = [];
  for (const mode of ['never', 'always']) {
    const r = await evalRun(mode);
    console.log(`| ${mode === 'always' ? 'deferred (tool_search)' : 'all 200 schemas'} | ${r.passed}/${r.of} | ${r.firstRequestChars.toLocaleString('en-US')} |`);
    for (const failure of r.failures) notes.push(`${mode}: ${failure}`);
  }
  for (const note of notes) console.log(`- ${note}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await toolChoiceEval();
