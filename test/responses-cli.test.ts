import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { CLI_SESSION_TIMEOUT_MS, cliHome, type CliHome } from './support/cli-process.js';
import { startResponsesServer, type ResponsesServer, type ResponsesStep } from './support/responses-server.js';

const servers: Array<ResponsesServer | ChatServer> = [];
const homes: CliHome[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const home of homes.splice(0)) home.cleanup();
});

const READ_THEN_ANSWER: ResponsesStep[] = [
  { reasoning: 'Read the notes first.', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'notes.txt' } }] },
  { reasoning: 'Then see what else is here.', toolCalls: [{ id: 'c2', name: 'list_files', arguments: { path: '.' } }] },
  { reasoning: 'Enough.', text: 'The notes say hello.', usage: { inputTokens: 900, cachedInputTokens: 600, outputTokens: 12, reasoningTokens: 4 } },
];

async function setup(script: ResponsesStep[]) {
  const server = await startResponsesServer(script);
  servers.push(server);
  const home = cliHome();
  homes.push(home);
  writeFileSync(join(home.workspace, 'notes.txt'), 'hello from the notes\n');
  const env = { OPENAI_API_KEY: 'test-key-123456', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'o4-mini' };
  return { server, home, env };
}

describe('the Responses wire from the CLI', { timeout: CLI_SESSION_TIMEOUT_MS * 2 }, () => {
  it('--wire responses runs a reasoning model’s tool task with its reasoning carried; the session goes on over Chat and replays offline', async () => {
    const { server, home, env } = await setup(READ_THEN_ANSWER);
    const ran = await home.run(['what do the notes say?', '--wire', 'responses'], env);
    expect(ran.stderr).not.toMatch(/error/i);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('The notes say hello.');
    expect(server.violations).toEqual([]);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[2]!.input.filter((item) => item.type === 'reasoning').map((item) => item.id)).toEqual(['rs_1', 'rs_2']);
    expect(JSON.stringify(server.requests[1]!.input)).toContain('hello from the notes');

    const [file] = home.sessionFiles();
    const id = file!.replace('.jsonl', '');
    const saved = readFileSync(home.sessionPath(file!), 'utf8');
    expect(saved).toContain('"responsesReasoning"');
    expect(saved).toContain('Read the notes first.');

    // Offline replay: the recorded requests are rebuilt byte for byte.
    const replayed = await home.run(['replay', id]);
    expect(replayed.stdout).toContain('identical: the 3 requests of 3 turns are byte for byte the recorded ones');
    expect(replayed.code).toBe(0);

    // The same session goes on over Chat Completions: the reasoning items stay behind.
    const chat = await startChatServer([{ text: 'Still hello.' }]);
    servers.push(chat);
    const resumed = await home.run(['--resume', id, '--wire', 'chat', 'and now?'], { ...env, OPENAI_BASE_URL: chat.url });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('Still hello.');
    expect(chat.violations).toEqual([]);
    expect(JSON.stringify(chat.requests[0]!.messages)).not.toContain('encrypted');
    expect(chat.requests[0]!.messages.filter((m) => m.role === 'tool')).toHaveLength(2);
  });

  it('a Chat session goes on over Responses chosen in the config file', async () => {
    const chat = await startChatServer([{ toolCalls: [{ id: 'k1', name: 'read_file', arguments: { path: 'notes.txt' } }] }, { text: 'hello, says the file' }]);
    servers.push(chat);
    const { server, home, env } = await setup([{ reasoning: 'Nothing to add.', text: 'Still hello.' }]);
    const first = await home.run(['what do the notes say?'], { ...env, VIBE_MODEL: 'test-model', OPENAI_BASE_URL: chat.url });
    expect(first.code).toBe(0);
    const id = home.sessionFiles()[0]!.replace('.jsonl', '');
    mkdirSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent'), { recursive: true });
    writeFileSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent', 'config.json'), JSON.stringify({ wire: 'responses' }));
    const resumed = await home.run(['--resume', id, 'and now?'], { ...env, VIBE_MODEL: 'test-model' });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('Still hello.');
    expect(server.violations).toEqual([]);
    expect(server.requests[0]!.input.map((item) => item.type)).toEqual(['message', 'message', 'function_call', 'function_call_output', 'message', 'message']);
  });

  it('refuses an unknown wire and --wire with a provider that has its own API', async () => {
    const home = cliHome();
    homes.push(home);
    const bad = await home.run(['--wire', 'grpc', 'task'], { OPENAI_API_KEY: 'k', VIBE_MODEL: 'm' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--wire.*chat.*responses/);
    const anthropic = await home.run(['--provider', 'anthropic', '--wire', 'responses', 'task'], { ANTHROPIC_API_KEY: 'k' });
    expect(anthropic.code).toBe(2);
    expect(anthropic.stderr).toContain('--wire chooses between');
  });
});
