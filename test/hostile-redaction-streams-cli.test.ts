/**
 * Every writer redacts (issue 34, class 5), end to end: a model that repeats the user's keys split
 * across its streamed reasoning and text deltas, and a tool error that names one, run by the built
 * CLI with plain stdout (piped), a session, checkpoints and OpenTelemetry on; then `trace --html`
 * and an eval whose check prints a key. Every file under the run's home, every stream and every
 * exported span body is searched for each key, whole and in parts.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { CLI_SESSION_TIMEOUT_MS, cliHome, homeEnv, spawnCli, type CliHome } from './support/cli-process.js';
import { startOtlpReceiver } from './support/otlp-receiver.js';

const API_KEY = 'sk-live-SPLITKEY-9f8e7d6c5b4a3';
const TOKEN = 'tok-ENVSECRET-0a1b2c3d4e5f';

const closers: Array<{ close(): Promise<void> }> = [];
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((closer) => closer.close()));
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'test-model', choices: [{ index: 0, delta, finish_reason: finish }] });

/** The keys cut in the middle, each half in a delta of its own, in reasoning and in text. */
const splitReply = {
  kind: 'raw_chunks' as const,
  chunks: [
    chunk({ role: 'assistant', reasoning_content: `I will repeat ${API_KEY.slice(0, 11)}` }),
    chunk({ reasoning_content: `${API_KEY.slice(11)} and ${TOKEN.slice(0, 9)}` }),
    chunk({ reasoning_content: `${TOKEN.slice(9)} now.` }),
    chunk({ content: `The key is ${API_KEY.slice(0, 6)}` }),
    chunk({ content: API_KEY.slice(6, 19) }),
    chunk({ content: `${API_KEY.slice(19)}; the token is ${TOKEN.slice(0, 12)}` }),
    chunk({ content: `${TOKEN.slice(12)}. Done.` }),
    chunk({}, 'stop'),
  ],
};

/** Every file under `dir`, recursively, as text. */
function filesUnder(dir: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (statSync(path).isFile()) out.push([path, readFileSync(path, 'latin1')]);
  }
  return out;
}

/** Where a key is found whole or by any 9 characters of it in a row. */
function leaks(places: Array<[string, string]>): string[] {
  const found: string[] = [];
  for (const secret of [API_KEY, TOKEN]) {
    for (let at = 0; at + 9 <= secret.length; at++) {
      const part = secret.slice(at, at + 9);
      for (const [where, text] of places) if (text.includes(part)) found.push(`${where}: ${part}`);
    }
  }
  return [...new Set(found)];
}

describe('no key in any file, stream or span the CLI writes, split or whole', { timeout: CLI_SESSION_TIMEOUT_MS * 3 }, () => {
  it('a one-shot run (plain piped stdout, session, checkpoints, spans), then trace --html', async () => {
    const server: ChatServer = await startChatServer([
      { text: `Reading the file named after ${API_KEY}.`, toolCalls: [{ id: 'call-1', name: 'read_file', arguments: { path: `missing-${API_KEY}.txt` } }] },
      splitReply,
    ]);
    const receiver = await startOtlpReceiver();
    closers.push(server, receiver);
    const home: CliHome = cliHome();
    cleanups.push(() => home.cleanup());
    writeFileSync(join(home.workspace, 'notes.txt'), 'nothing secret\n');
    const env = { OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model', MY_SERVICE_TOKEN: TOKEN, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' };
    const ran = await home.run(['--api-key', API_KEY, '--provider', 'openai', 'Say the key back.'], env);
    expect(ran.code, ran.stderr).toBe(0);
    // The answer and the thinking were shown, with the keys replaced.
    expect(ran.stdout).toContain('[redacted]');
    expect(ran.stdout).toContain('Done.');
    expect(ran.stderr).toContain('I will repeat [redacted]');
    expect(home.sessionFiles()).toHaveLength(1);
    const html = join(home.root, 'trace.html');
    const traced = await home.run(['trace', '--html', html, '--api-key', API_KEY], { MY_SERVICE_TOKEN: TOKEN });
    expect(traced.code, traced.stderr).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain('[redacted]');
    expect(receiver.bodies.length).toBeGreaterThan(0);
    expect(receiver.bodies.join('')).toContain('[redacted]');
    const places: Array<[string, string]> = [
      ['stdout', ran.stdout],
      ['stderr', ran.stderr],
      ['trace stdout', traced.stdout],
      ['trace stderr', traced.stderr],
      ['spans', receiver.bodies.join('\n')],
      ...filesUnder(home.root),
    ];
    expect(places.length).toBeGreaterThan(6);
    expect(leaks(places)).toEqual([]);
  });

  it('eval: a check whose output names the key gives a redacted reason in the results file, stdout and the progress lines', async () => {
    const root = mkdtempSync(join(tmpdir(), 'vibe-redaction-eval-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const suite = join(root, 'suite');
    mkdirSync(join(suite, 'fixtures', 'empty'), { recursive: true });
    writeFileSync(join(suite, 'fixtures', 'empty', 'README'), 'x\n');
    writeFileSync(join(suite, 'leaky.json'), JSON.stringify({ prompt: 'TASK leaky: nothing.', fixture: 'fixtures/empty', check: `node -e "console.error('expected ${API_KEY}'); process.exit(1)"`, tools: 'coding', limits: { maxTurns: 2, timeoutSeconds: 120 } }));
    const server = await startChatServer([{ text: 'I cannot do that.' }]);
    closers.push(server);
    const out = join(root, 'results.jsonl');
    const ran = await spawnCli(['eval', '--suite', suite, '--base-url', server.url, '--model', 'test-model', '--api-key', API_KEY, '--min-pass', '0', '-o', out], { cwd: root, env: homeEnv(join(root, 'home')) });
    expect(ran.code, ran.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('expected [redacted]');
    expect(leaks([['stdout', ran.stdout], ['stderr', ran.stderr], ...filesUnder(root).filter(([path]) => !path.endsWith('leaky.json'))])).toEqual([]);
  });
});
