/** Regressions found by using the one-shot CLI as a new user would: flags, setup messages, sessions. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer, type ServerStep } from './support/chat-server.js';
import { cliHome, type CliHome } from './support/cli-process.js';

const servers: ChatServer[] = [];
const homes: CliHome[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const home of homes.splice(0)) home.cleanup();
});

async function setup(script: ServerStep[], model = 'test-model') {
  const server = await startChatServer(script);
  servers.push(server);
  const home = cliHome();
  homes.push(home);
  const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: model };
  return { server, home, env, run: (args: string[], extra: Record<string, string> = {}) => home.run(args, { ...env, ...extra }) };
}

describe('flags with bad values exit 2 before anything runs', () => {
  it('--cwd that does not exist, or is a file, is a usage error (no request, no session)', async () => {
    const { server, home, run } = await setup([{ text: 'should not be asked' }]);
    const missing = await run(['task', '--cwd', join(home.root, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--cwd ${join(home.root, 'nope')}: no such directory`);
    writeFileSync(join(home.root, 'a-file'), 'x');
    const file = await run(['task', '--cwd', join(home.root, 'a-file')]);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('is not a directory');
    expect((await run(['sessions', '--cwd', 'nope'])).code).toBe(2);
    expect((await run(['memory', '--cwd', 'nope'])).code).toBe(2);
    expect(server.requests).toHaveLength(0);
    expect(existsSync(join(home.env.XDG_DATA_HOME, 'vibe-agent'))).toBe(false);
  });

  it('--base-url or OPENAI_BASE_URL that is not an http(s) URL is a usage error, not four retries', async () => {
    const { server, run } = await setup([]);
    const flag = await run(['task', '--base-url', 'localhost:11434/v1']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--base-url');
    expect(flag.stderr).toContain('http://');
    expect(flag.stderr).not.toContain('retry');
    const env = await run(['task'], { OPENAI_BASE_URL: 'notaurl' });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('OPENAI_BASE_URL');
    expect(server.requests).toHaveLength(0);
  });

  it('empty or non-decimal numbers are refused rather than read as 0 or hex; demo takes no prompt', async () => {
    const { server, run } = await setup([]);
    const temperature = await run(['task', '--temperature', '']);
    expect(temperature.code).toBe(2);
    expect(temperature.stderr).toContain('--temperature must be a number from 0 to 2');
    const turns = await run(['task', '--max-turns', '0x10']);
    expect(turns.code).toBe(2);
    expect(turns.stderr).toContain('--max-turns must be a whole number');
    const window = await run(['task', '--context-window', ' ']);
    expect(window.code).toBe(2);
    const demo = await run(['demo', 'what', 'is', '2+2']);
    expect(demo.code).toBe(2);
    expect(demo.stderr).toContain('takes no prompt');
    expect(server.requests).toHaveLength(0);
  });
});

describe('setup messages name what this provider really needs', () => {
  it('--provider ollama without a model asks for a model only, with an Ollama example and its base URL variable', async () => {
    const home = cliHome();
    homes.push(home);
    const ran = await home.run(['--provider', 'ollama', 'task']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('VIBE_MODEL or --model');
    expect(ran.stderr).not.toContain('OPENAI_API_KEY');
    expect(ran.stderr).not.toContain('gpt-4.1-mini');
    expect(ran.stderr).toContain('OLLAMA_BASE_URL');
  });

  it('--provider deepseek without a key does not suggest OPENAI_BASE_URL, which that preset ignores', async () => {
    const home = cliHome();
    homes.push(home);
    const ran = await home.run(['--provider', 'deepseek', 'task']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('DEEPSEEK_API_KEY');
    expect(ran.stderr).not.toContain('OPENAI_BASE_URL');
    expect(ran.stderr).toContain('--base-url');
    expect(ran.stderr).not.toMatch(/No model is configured/);
  });
});

describe('what a denied call tells the model', () => {
  it('points to the user config for allow rules, since a project config cannot allow', async () => {
    const { server, run } = await setup([{ toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] }, { text: 'I could not.' }]);
    expect((await run(['list', '--tools', 'bash'])).code).toBe(4); // the call was refused for want of approval
    const denied = String(server.requests[1]!.messages.at(-1)!.content);
    expect(denied).toMatch(/^Denied: bash needs the user's approval/);
    expect(denied).toContain('~/.config/vibe-agent/config.json');
    expect(denied).not.toMatch(/permissions\.allow rule in \.vibe-agent\/config\.json/);
  });
});

describe('vibe-agent sessions', () => {
  it('shows the cost of priced runs, summed over the runs of a session', async () => {
    const { run } = await setup([{ text: 'one' }, { text: 'two' }], 'gpt-4.1');
    expect((await run(['first'])).code).toBe(0);
    expect((await run(['--continue', 'second'])).code).toBe(0);
    const listed = await run(['sessions']);
    expect(listed.code).toBe(0);
    const row = listed.stdout.split('\n').find((line) => line.includes('first'))!;
    // Each scripted reply reports usage; gpt-4.1 has a list price, so the column is a dollar figure.
    expect(row).toMatch(/\s2\s+\S+\s+\$\d+\.\d{2,}\s+first/);
  });
});

describe('stdout closed early (vibe-agent --json "…" | head -1)', () => {
  it('stops the run cleanly: no EPIPE stack trace, the session ends with its stop record', async () => {
    const { home, env } = await setup([{ kind: 'slow', reply: { text: 'word '.repeat(400) }, frameDelayMs: 5 }]);
    const { spawn } = await import('node:child_process');
    const { CLI } = await import('./support/cli-process.js');
    const child = spawn(process.execPath, [CLI, 'write a lot', '--json'], { cwd: home.workspace, env: { ...home.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).not.toMatch(/EPIPE|Unhandled|unexpected error/);
    expect(code).toBe(130);
    const [file] = home.sessionFiles();
    const last = JSON.parse(readFileSync(home.sessionPath(file!), 'utf8').trim().split('\n').at(-1)!);
    expect(last).toMatchObject({ type: 'stop', reason: 'aborted' });
  });
});

describe('--protocol prompt-json keeps the provider-specific context defaults', () => {
  it('an Ollama model gets the local 8192-token window, so a long tool output is capped as it is natively', async () => {
    const server = await startChatServer([{ text: '{"tool": "read_file", "arguments": {"path": "big.txt"}}' }, { text: '{"answer": "read it"}' }]);
    servers.push(server);
    const home = cliHome();
    homes.push(home);
    writeFileSync(join(home.workspace, 'big.txt'), `${'a line of text in a long file\n'.repeat(200)}`);
    const ran = await home.run(['read big.txt', '--provider', 'ollama', '--model', 'qwen2.5-coder', '--protocol', 'prompt-json', '--tools', 'read_file'], { OLLAMA_BASE_URL: server.url });
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe('read it');
    const result = String(server.requests[1]!.messages.at(-1)!.content);
    expect(result).toMatch(/^Result of read_file \(call pj_1_0\)/);
    expect(result).toContain('omitted of');
    expect(result.length).toBeLessThan(3_500);
  });
});

describe('vibe-agent "…" > answer.txt captures only the answer', () => {
  it('text a model writes alongside its tool calls goes to stderr with the tool lines, not into the piped answer', async () => {
    const { server, run } = await setup([
      { text: 'Let me compute that first.', toolCalls: [{ name: 'calculator', arguments: { expression: '17 * 23' } }] },
      { text: '17 × 23 = 391' },
    ]);
    const ran = await run(['What is 17 × 23?', '--tools', 'course']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe('17 × 23 = 391\n');
    expect(ran.stderr).toMatch(/Let me compute that first\.\n→ calculator/);
    expect(server.violations).toEqual([]);
  });

  it('a reply cut off and retried leaves no half-written text in the piped answer', async () => {
    const broken = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'test-model', choices: [{ index: 0, delta: { role: 'assistant', content: 'The first attempt that bre' }, finish_reason: null }] };
    // The text arrives, then the stream ends with no finish frame: a cut stream, retried.
    const { run } = await setup([{ kind: 'raw_chunks', chunks: [broken], noDone: true }, { text: 'The whole answer.' }]);
    const ran = await run(['question', '--tools', 'course']);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toContain('retry 1');
    expect(ran.stdout).toBe('The whole answer.\n');
  });
});

describe('--help', () => {
  it('names every option the parser accepts', async () => {
    const { PARSE_OPTIONS } = await import('../src/cli/args.js');
    const HELP = (await import('../src/cli/help-text.js')).helpText();
    const options = Object.keys(PARSE_OPTIONS);
    expect(options.length).toBeGreaterThan(20);
    expect(options.filter((name) => !HELP.includes(`--${name}`))).toEqual([]);
    const shorts = Object.values(PARSE_OPTIONS).flatMap((option) => option.short ?? []);
    expect(shorts.filter((short) => !HELP.includes(`, -${short} `))).toEqual([]);
  });

  it('the built CLI prints exactly helpText() for --help and -h (help.txt is written at build time)', async () => {
    const { spawnSync } = await import('node:child_process');
    const HELP = (await import('../src/cli/help-text.js')).helpText();
    for (const flag of ['--help', '-h']) {
      const ran = spawnSync(process.execPath, [join(import.meta.dirname, '..', 'dist', 'cli', 'main.js'), flag], { encoding: 'utf8' });
      expect(ran.status).toBe(0);
      expect(ran.stdout).toBe(`${HELP}\n`);
    }
  });
});

describe('config files against flags and environment', () => {
  const writeUserConfig = (home: CliHome, config: object) => {
    mkdirSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent'), { recursive: true });
    writeFileSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent', 'config.json'), JSON.stringify(config));
  };

  it('OPENAI_BASE_URL beats a baseUrl in the config file (environment beats config files)', async () => {
    const { server, home, run } = await setup([{ text: 'from the env endpoint' }]);
    writeUserConfig(home, { baseUrl: 'http://127.0.0.1:9/v1' });
    const ran = await run(['hello', '--no-session']);
    expect(ran.stderr).not.toContain('retry');
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe('from the env endpoint');
    expect(server.requests).toHaveLength(1);
  });

  it("a config's model and baseUrl belong to its provider: --provider picks another one with that provider's defaults", async () => {
    const server = await startChatServer([{ text: 'hosted answer' }]);
    servers.push(server);
    const home = cliHome();
    homes.push(home);
    writeUserConfig(home, { provider: 'ollama', model: 'qwen2.5-coder', baseUrl: 'http://127.0.0.1:9/v1' });
    const ran = await home.run(['hello', '--provider', 'deepseek', '--base-url', server.url, '--no-session'], { DEEPSEEK_API_KEY: 'test-key' });
    expect(ran.code).toBe(0);
    expect(server.requests[0]!.model).toBe('deepseek-chat');
    const keyOnly = await home.run(['hello', '--provider', 'deepseek', '--no-session'], {});
    expect(keyOnly.code).toBe(2);
    expect(keyOnly.stderr).toContain('DEEPSEEK_API_KEY');
  });
});

describe('a session directory that cannot be created', () => {
  it('warns and runs without saving, rather than failing the task with a stack trace', async () => {
    const { server, home, run } = await setup([{ text: 'answered anyway' }]);
    const notADir = join(home.root, 'data-is-a-file');
    writeFileSync(notADir, '');
    const ran = await run(['hello'], { XDG_DATA_HOME: notADir });
    expect(ran.stderr).not.toContain('unexpected error');
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe('answered anyway');
    expect(ran.stderr).toMatch(/warning: .*could not be created.*not saved/);
    expect(server.requests).toHaveLength(1);
  });
});
