import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer, type ServerStep } from './support/chat-server.js';
import { homeEnv, spawnCli, type Ran } from './support/cli-process.js';

const home = mkdtempSync(join(tmpdir(), 'vibe-cli-'));
const servers: ChatServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}, onSpawn?: (child: ChildProcess) => void): Promise<Ran> {
  return spawnCli(args, { cwd: home, env: { ...homeEnv(home), ...env }, ...(onSpawn ? { onSpawn } : {}) });
}

async function withServer(script: ServerStep[]) {
  const server = await startChatServer(script);
  servers.push(server);
  return { server, env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' } };
}

describe('the CLI', () => {
  it('prints the streamed answer on stdout and tool lines on stderr when stdout is piped (exit 0)', async () => {
    const { server, env } = await withServer([{ toolCalls: [{ name: 'calculator', arguments: { expression: '17 * 23' } }] }, { text: '17 × 23 = 391' }]);
    const ran = await cli(['What is 17 × 23?', '--tools', 'course'], env);
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe('17 × 23 = 391');
    expect(ran.stderr).toContain('→ calculator expression="17 * 23"');
    expect(ran.stderr).toContain('✓ 17 * 23 = 391');
    expect(server.violations).toEqual([]);
    expect(server.requests[0]!.messages[1]).toEqual({ role: 'user', content: 'What is 17 × 23?' });
  });

  it('--json prints one event per line, the last being the stop event', async () => {
    const { env } = await withServer([{ text: 'hi' }]);
    const ran = await cli(['-p', 'hello', '--json'], env);
    expect(ran.code).toBe(0);
    const events = ran.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(events[0]).toMatchObject({ type: 'run_start', model: 'test-model', input: 'hello' });
    expect(events.at(-1)).toMatchObject({ type: 'stop', reason: 'answered', answer: 'hi', turns: 1 });
  });

  it('exits 1 on a provider error, saying what failed', async () => {
    const { env } = await withServer([{ kind: 'http_error', status: 401, body: { error: { message: 'bad key' } } }]);
    const ran = await cli(['hello'], env);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/provider failed.*401.*bad key/s);
  });

  it('exits 3 when a brake stops the run (turn limit, with the hand-off shown)', async () => {
    const call = { toolCalls: [{ name: 'calculator', arguments: { expression: '1+1' } }] };
    const { env } = await withServer([call, { text: 'Hand-off: computed 1+1, nothing remains.' }]);
    const ran = await cli(['loop', '--max-turns', '1'], env);
    expect(ran.code).toBe(3);
    expect(ran.stdout).toContain('Hand-off: computed 1+1');
    expect(ran.stderr).toContain('turn limit');
  });

  it('exits 130 on Ctrl-C (SIGINT) mid-stream', async () => {
    const { server, env } = await withServer([{ kind: 'slow', reply: { text: 'a slow answer that streams for a long while' }, frameDelayMs: 300 }]);
    const ran = await cli(['hello'], env, (child) => {
      void server.waitForRequest(1).then(() => child.kill('SIGINT'));
    });
    expect(ran.code).toBe(130);
  });

  it('explains exactly what to set when no key is configured (exit 2); the model has a default at OpenAI', async () => {
    const ran = await cli(['hello']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('OPENAI_API_KEY');
    expect(ran.stderr).not.toContain('VIBE_MODEL');
    expect(ran.stderr).toContain('ollama');
  });

  it('rejects bad flags, bad numbers and unknown tools with exit 2', async () => {
    expect((await cli(['--bogus'])).code).toBe(2);
    const turns = await cli(['x', '--max-turns', 'zero']);
    expect(turns.code).toBe(2);
    expect(turns.stderr).toContain('--max-turns');
    const { env } = await withServer([]);
    const tools = await cli(['x', '--tools', 'course,teleport'], env);
    expect(tools.code).toBe(2);
    expect(tools.stderr).toContain('Unknown tool: teleport');
    expect((await cli([])).code).toBe(2);
  });

  it('--tools course sends exactly the three course tools, and read_output (offered from the start: any output may be shortened)', async () => {
    const { server, env } = await withServer([{ text: 'ok' }]);
    expect((await cli(['x', '--tools', 'course'], env)).code).toBe(0);
    expect(server.requests[0]!.tools!.map((t) => t.function.name)).toEqual(['current_time', 'calculator', 'fetch_url', 'read_output']);
  });

  it('prints --version and --help', async () => {
    expect((await cli(['--version'])).stdout).toMatch(/^vibe-agent \d+\.\d+\.\d+/);
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--model');
    const all = await cli(['--help', 'all']);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('--max-turns');
  });

  it('reports a malformed config file clearly (exit 2)', async () => {
    const { writeFileSync, mkdirSync } = await import('node:fs');
    const dir = mkdtempSync(join(tmpdir(), 'vibe-cfg-'));
    mkdirSync(join(dir, '.vibe-agent'));
    writeFileSync(join(dir, '.vibe-agent', 'config.json'), '{ "maxTurns": "many" ');
    const ran = await cli(['x', '--cwd', dir]);
    rmSync(dir, { recursive: true, force: true });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/config\.json is not valid JSON/);
  });

  it('runs the offline demo on the scripted model and says so', async () => {
    const ran = await cli(['demo']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('SCRIPTED');
    expect(ran.stdout).toContain('17 × 23 = 391');
    expect(ran.stdout.match(/stop: answered/g)).toHaveLength(4);
    expect(ran.stdout).toMatch(/2099 World Cup[\s\S]*tool calls: none[\s\S]*I don't know/);
  });
});

describe('demo --json', () => {
  const runs = (stdout: string) => {
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });
    const grouped: Array<typeof events> = [];
    for (const event of events) {
      if (event.type === 'run_start') grouped.push([]);
      grouped.at(-1)!.push(event);
    }
    return grouped;
  };
  // Streamed text comes in chunks of any size: a run of text deltas is one step.
  // Streaming granularity is the server's choice (the scripted demo model sends whole calls): compare the events that carry meaning.
  const shape = (run: Array<{ type: string }>) =>
    run.map((event) => event.type).filter((type, i, all) => type !== 'tool_call_delta' && (type !== 'text_delta' || all[i - 1] !== 'text_delta'));

  it('prints the AgentEvents of each task as a --json run prints its own', async () => {
    const demo = await cli(['demo', '--json']);
    expect(demo.code).toBe(0);
    const tasks = runs(demo.stdout);
    expect(tasks.map((run) => run[0]!.input)).toEqual(['What time is it now?', 'What is 17 × 23?', expect.stringMatching(/^Fetch http:\/\/127\.0\.0\.1:\d+\/ and divide/), 'Who won the 2099 World Cup?']);
    expect(tasks.map((run) => run.at(-1))).toEqual(Array.from({ length: 4 }, () => expect.objectContaining({ type: 'stop', reason: 'answered' })));
    const calculator = tasks[1]!;
    expect(calculator.find((event) => event.type === 'tool_call_end')).toMatchObject({ name: 'calculator', status: 'ok', output: '17 * 23 = 391' });

    const { env } = await withServer([{ toolCalls: [{ name: 'calculator', arguments: { expression: '17 * 23' } }] }, { text: '17 × 23 = 391.' }]);
    const oneShot = await cli(['What is 17 × 23?', '--json', '--tools', 'course', '--max-turns', '6', '--no-session'], env);
    expect(oneShot.code).toBe(0);
    const [run] = runs(oneShot.stdout);
    expect(shape(calculator)).toEqual(shape(run!));
    expect(calculator.at(-1)).toMatchObject({ answer: '17 × 23 = 391.', turns: 2 });
    expect(run!.at(-1)).toMatchObject({ answer: '17 × 23 = 391.', turns: 2 });
  });
});

describe('the CLI asks before a call that executes', () => {
  const bashCall = { toolCalls: [{ name: 'bash', arguments: { command: 'echo ran > proof.txt' } }] };
  afterEach(() => rmSync(join(home, 'proof.txt'), { force: true }));

  it('with no terminal, denies it and tells the model, which answers (no hang, nothing run)', async () => {
    const { server, env } = await withServer([bashCall, { text: 'I could not run it.' }]);
    const ran = await cli(['make proof', '--tools', 'bash'], env);
    expect(ran.code).toBe(4);
    expect(ran.stderr).toContain('⊘');
    expect(ran.stderr).toContain('"bash(echo ran > proof.txt)"');
    const result = server.requests[1]!.messages.at(-1)!;
    expect(result.role).toBe('tool');
    expect(String(result.content)).toMatch(/^Denied: bash needs the user's approval and there is no terminal to ask/);
    expect(existsSync(join(home, 'proof.txt'))).toBe(false);
  });

  it('--yes runs it', async () => {
    const { server, env } = await withServer([bashCall, { text: 'Done.' }]);
    const ran = await cli(['make proof', '--tools', 'bash', '--yes'], env);
    expect(ran.code).toBe(0);
    expect(readFileSync(join(home, 'proof.txt'), 'utf8')).toBe('ran\n');
    expect(String(server.requests[1]!.messages.at(-1)!.content)).toContain('exit code: 0');
  });

  it('an allow rule in the user config runs it; the same rule in a project config is ignored with a warning', async () => {
    const configDir = join(home, 'config', 'vibe-agent');
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ permissions: { allow: ['bash(echo *)'] } }));
    try {
      const { env } = await withServer([bashCall, { text: 'Done.' }]);
      const ran = await cli(['make proof', '--tools', 'bash'], env);
      expect(ran.code).toBe(4);
      expect(existsSync(join(home, 'proof.txt'))).toBe(false); // "echo ran > proof.txt" redirects: an allow rule never covers that
      const { server: second, env: env2 } = await withServer([{ toolCalls: [{ name: 'bash', arguments: { command: 'echo plain' } }] }, { text: 'Done.' }]);
      expect((await cli(['echo', '--tools', 'bash'], env2)).code).toBe(0);
      expect(String(second.requests[1]!.messages.at(-1)!.content)).toContain('plain');
    } finally {
      rmSync(join(configDir, 'config.json'));
    }
    mkdirSync(join(home, '.vibe-agent'), { recursive: true });
    writeFileSync(join(home, '.vibe-agent', 'config.json'), JSON.stringify({ permissionMode: 'yolo', permissions: { allow: ['bash'] } }));
    try {
      const { server, env } = await withServer([bashCall, { text: 'No.' }]);
      const ran = await cli(['make proof', '--tools', 'bash'], env);
      expect(ran.stderr).toContain('permissionMode, permissions.allow ignored; a project file cannot loosen permissions');
      expect(String(server.requests[1]!.messages.at(-1)!.content)).toMatch(/^Denied/);
    } finally {
      rmSync(join(home, '.vibe-agent'), { recursive: true });
    }
    // Three CLI runs with the shell: 8 s at load 19, past the default 20 s at load 21.
  }, 60_000);

  it('rejects a bad --permission-mode and a malformed rule with exit 2', async () => {
    const bad = await cli(['x', '--permission-mode', 'sometimes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--permission-mode must be one of ask, auto-edit, auto, yolo');
    const configDir = join(home, 'config', 'vibe-agent');
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ permissions: { deny: ['bash(rm'] } }));
    try {
      const { env } = await withServer([]);
      const ran = await cli(['x'], env);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain('Invalid permission rule in config');
    } finally {
      rmSync(join(configDir, 'config.json'));
    }
  });
});
