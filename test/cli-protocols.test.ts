import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatRequestBody, type ChatServer, type ServerStep } from './support/chat-server.js';
import { cliHome, homeEnv, spawnCli, type Ran } from './support/cli-process.js';

const home = mkdtempSync(join(tmpdir(), 'vibe-cli-protocols-'));
const servers: ChatServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return spawnCli(args, { cwd: home, env: { ...homeEnv(home), ...env } });
}

async function withServer(steps: ServerStep[]) {
  const server = await startChatServer(steps);
  servers.push(server);
  return { server, env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' } };
}

const lastContent = (body: ChatRequestBody) => String(body.messages.at(-1)?.content ?? '');

/**
 * A stand-in model for the comparison: it calls current_time once and then answers, natively when
 * it is offered tools and in JSON text when it is not; for 17 × 23 its first JSON reply is broken.
 */
function standInModel(body: ChatRequestBody) {
  const task = String(body.messages.find((m) => m.role === 'user')?.content);
  const noTool = task.includes('2099');
  if (body.tools) {
    if (body.messages.at(-1)?.role === 'tool' || noTool) return { text: `native answer to ${task}` };
    return { toolCalls: [{ name: 'current_time', arguments: {} }] };
  }
  const last = lastContent(body);
  if (last.startsWith('Result of') || noTool) return { text: JSON.stringify({ answer: `json answer to ${task}` }) };
  // The full task, not '17': the demo page's URL carries a random port, which can contain 17.
  if (task.includes('17 × 23') && !last.startsWith('Your reply')) return { text: '{"tool": "current_time", "arguments": {}' };
  return { text: '{"tool": "current_time", "arguments": {}}' };
}

describe('the CLI with --protocol and demo --compare-protocols', () => {
  it('compares the protocols offline on the scripted model, says so, and prints the table', async () => {
    const ran = await cli(['demo', '--compare-protocols']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('Model: built-in SCRIPTED model (offline)');
    expect(ran.stdout).toContain('| task | turns native | turns prompt-json | parse failures | answer (native) | answer (prompt-json) |');
    // An unreadable reply is re-asked within its turn, so it costs a request, not a turn.
    expect(ran.stdout).toMatch(/\| 17 × 23 \| 2 \| 2 \| 1 \| 17 × 23 = 391\. \| 17 × 23 = 391\. \|/);
    expect(ran.stdout).toMatch(/\| Page length ÷ 7 \| 3 \| 3 \| 0 \| The page is \d+ characters long/);
    expect(ran.stdout).toMatch(/\| 2099 World Cup \| 1 \| 1 \| 1 \| I don't know/);
    expect(ran.stdout).toContain('| **total** | 8 | 8 | 2 | | |');
  });

  it('demo --protocol prompt-json runs offline on scripted JSON replies and shows the unreadable ones', async () => {
    const ran = await cli(['demo', '--protocol', 'prompt-json']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('SCRIPTED');
    expect(ran.stdout).toContain('Protocol: prompt-json');
    expect(ran.stdout).toMatch(/17 × 23[\s\S]*✗ reply not readable \(bad_json\): Your reply was not valid JSON: an object is not closed[^\n]*\n\s+→ calculator[\s\S]*?turns: 2 · tool calls: calculator/);
    expect(ran.stdout).toMatch(/2099 World Cup[\s\S]*✗ reply not readable \(no_json\)[\s\S]*tool calls: none/);
    expect(ran.stdout.match(/stop: answered/g)).toHaveLength(4);
  });

  it('compares the protocols on a configured model over HTTP: tools natively one way, JSON text the other', async () => {
    const { server, env } = await withServer(Array.from({ length: 15 }, () => standInModel));
    const ran = await cli(['demo', '--compare-protocols'], env);
    expect(ran.stderr).toContain('running 4/4');
    expect(ran.code, `${ran.stderr}\n${ran.stdout}`).toBe(0);
    expect(ran.stdout).toContain('Model: test-model via openai (measured');
    expect(ran.stdout).toContain('| The time | 2 | 2 | 0 | native answer to What time is it now? | json answer to What time is it now? |');
    expect(ran.stdout).toContain('| 17 × 23 | 2 | 2 | 1 |');
    expect(ran.stdout).toContain('| 2099 World Cup | 1 | 1 | 0 |');
    expect(ran.stdout).toContain('| **total** | 7 | 7 | 1 | | |');
    expect(server.violations).toEqual([]);
    expect(server.remaining).toBe(0);
    const promptJsonRequests = server.requests.filter((body) => !body.tools);
    expect(promptJsonRequests).toHaveLength(8);
    for (const body of promptJsonRequests) {
      expect(String(body.messages[0]!.content)).toContain('Reply with exactly one JSON object');
      expect(body.messages.some((m) => m.role === 'tool' || m.tool_calls)).toBe(false);
    }
  });

  it('--protocol prompt-json runs a task with JSON replies and shows only the parsed answer', async () => {
    const { server, env } = await withServer([{ text: '```json\n{"tool": "calculator", "arguments": {"expression": "17 * 23"}}\n```' }, { text: '{"answer": "17 × 23 = 391"}' }]);
    const ran = await cli(['What is 17 × 23?', '--protocol', 'prompt-json', '--tools', 'course'], env);
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe('17 × 23 = 391');
    expect(ran.stderr).toContain('→ calculator expression="17 * 23"');
    expect(server.requests[0]!.tools).toBeUndefined();
    expect(server.requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: 'Result of calculator (call pj_1_0): 17 * 23 = 391' });
  });

  it('shows an unreadable reply on stderr and goes on', async () => {
    const { env } = await withServer([{ text: '{"tool": calculator}' }, { text: '{"answer": "fixed"}' }]);
    const ran = await cli(['hi', '--protocol', 'prompt-json'], env);
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe('fixed');
    expect(ran.stderr).toContain('✗ reply not readable (bad_json): Your reply was not valid JSON: unexpected word "calculator"');
  });

  it('--continue after an unreadable reply sends the readable history only: no unreadable reply, no correction', async () => {
    const bad = '{"tool": calculator}';
    const good = '{"answer": "fixed"}';
    const { server, env } = await withServer([{ text: bad }, { text: good }, { text: '{"answer": "again"}' }]);
    const home = cliHome();
    try {
      expect((await home.run(['hi', '--protocol', 'prompt-json'], env)).code).toBe(0);
      const resumed = await home.run(['--continue', 'and now?', '--protocol', 'prompt-json'], env);
      expect(resumed.stdout.trim()).toBe('again');
      const contents = server.requests[2]!.messages.slice(1).map((m) => [m.role, m.content]);
      expect(contents).toEqual([
        ['user', 'hi'],
        ['assistant', good],
        ['user', 'and now?'],
      ]);
      // The re-ask within the first run did carry them.
      expect(server.requests[1]!.messages.slice(-2).map((m) => m.content)).toEqual([bad, expect.stringMatching(/^Your reply was not valid JSON/)]);
    } finally {
      home.cleanup();
    }
  });

  it.each([
    [['x', '--protocol', 'xml'], '--protocol must be one of native, prompt-json, got "xml".'],
    [['x', '--compare-protocols'], '--compare-protocols only applies to "vibe-agent demo"'],
    [['demo', '--compare-protocols', '--protocol', 'native'], 'leave out --protocol'],
  ])('refuses %j with a clear message (exit 2)', async (args, message) => {
    const ran = await cli(args);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(message);
  });
});
