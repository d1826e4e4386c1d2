/**
 * The built CLI resumes a session made on another wire or provider: the reasoning it cannot send
 * is noted once per run on stderr, as one `context_warning` event under --json, and in the trace.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/contracts/events.js';
import { readSessionFile } from '../src/session/read-session.js';
import { buildTrace } from '../src/trace/build-trace.js';
import { startAnthropicServer, type AnthropicServer } from './support/anthropic-server.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { CLI_SESSION_TIMEOUT_MS, cliHome, type CliHome } from './support/cli-process.js';
import { startResponsesServer, type ResponsesServer, type ResponsesStep } from './support/responses-server.js';

const servers: Array<ResponsesServer | ChatServer | AnthropicServer> = [];
const homes: CliHome[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const home of homes.splice(0)) home.cleanup();
});

const NOTE_ON_CHAT =
  '⚠ reasoning from 2 earlier turns was made by openai/o4-mini (responses) and cannot be sent to openai/o4-mini (chat); it is left out (the text, calls and results carry over).';

/** A session made over Responses by o4-mini: two turns with reasoning, the second an answer. */
async function responsesSession(later: ResponsesStep[] = []) {
  const server = await startResponsesServer([
    { reasoning: 'Read the notes first.', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'notes.txt' } }] },
    { reasoning: 'Enough.', text: 'The notes say hello.' },
    ...later,
  ]);
  servers.push(server);
  const home = cliHome();
  homes.push(home);
  writeFileSync(join(home.workspace, 'notes.txt'), 'hello from the notes\n');
  const env = { OPENAI_API_KEY: 'test-key-123456', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'o4-mini' };
  const made = await home.run(['what do the notes say?', '--wire', 'responses'], env);
  expect(made.code).toBe(0);
  expect(made.stderr).not.toContain('left out');
  const file = home.sessionFiles()[0]!;
  return { server, home, env, file, id: file.replace('.jsonl', '') };
}

async function chatServer() {
  const chat = await startChatServer([{ toolCalls: [{ id: 'k1', name: 'list_files', arguments: { path: '.' } }] }, { text: 'Still hello.' }]);
  servers.push(chat);
  return chat;
}

const countOf = (text: string, part: string) => text.split(part).length - 1;

describe('a resumed session says what it could not carry', { timeout: CLI_SESSION_TIMEOUT_MS * 3 }, () => {
  it('--wire chat after responses: one note on stderr over two requests, kept in the session and its trace', async () => {
    const { home, env, id, file } = await responsesSession();
    const chat = await chatServer();
    const resumed = await home.run(['--resume', id, '--wire', 'chat', 'and now?'], { ...env, OPENAI_BASE_URL: chat.url });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe('Still hello.\n');
    expect(chat.requests).toHaveLength(2);
    expect(chat.violations).toEqual([]);
    expect(JSON.stringify(chat.requests)).not.toMatch(/encrypted|Read the notes first/);
    expect(countOf(resumed.stderr, 'left out')).toBe(1);
    expect(resumed.stderr.split('\n')).toContain(NOTE_ON_CHAT);

    const trace = await buildTrace(readSessionFile(home.sessionPath(file)), { file });
    expect(countOf(JSON.stringify(trace), 'cannot be sent to openai/o4-mini (chat)')).toBe(1);
  });

  it('--json: the note is one context_warning event with what was left out', async () => {
    const { home, env, id } = await responsesSession();
    const chat = await chatServer();
    const resumed = await home.run(['--resume', id, '--wire', 'chat', '--json', 'and now?'], { ...env, OPENAI_BASE_URL: chat.url });
    expect(resumed.code).toBe(0);
    const events = resumed.stdout.trim().split('\n').map((line) => JSON.parse(line) as AgentEvent);
    const warnings = events.filter((event) => event.type === 'context_warning');
    expect(warnings).toEqual([
      {
        type: 'context_warning',
        turn: 1,
        message: NOTE_ON_CHAT.slice(2),
        leftOut: [{ part: 'reasoning', from: { provider: 'openai', model: 'o4-mini', wire: 'responses' }, to: { provider: 'openai', model: 'o4-mini', wire: 'chat' }, turns: 2 }],
      },
    ]);
    expect(resumed.stderr).not.toContain('left out');
  });

  it('--provider anthropic: the note names the provider the history is going to', async () => {
    const { home, env, id } = await responsesSession();
    const anthropic = await startAnthropicServer([{ toolCalls: [{ id: 'toolu_1', name: 'list_files', arguments: { path: '.' } }] }, { text: 'Hello, from Claude.' }]);
    servers.push(anthropic);
    const resumed = await home.run(['--resume', id, '--provider', 'anthropic', '--model', 'claude-sonnet-4-5', 'and now?'], { ...env, ANTHROPIC_API_KEY: 'sk-ant-cli', ANTHROPIC_BASE_URL: anthropic.url });
    expect(resumed.code).toBe(0);
    expect(anthropic.violations).toEqual([]);
    expect(resumed.stdout).toBe('Hello, from Claude.\n');
    expect(countOf(resumed.stderr, 'left out')).toBe(1);
    expect(resumed.stderr).toContain('reasoning from 2 earlier turns was made by openai/o4-mini (responses) and cannot be sent to anthropic/claude-sonnet-4-5; it is left out');
  });

  it('the same provider, model and wire: the reasoning goes back and nothing is noted', async () => {
    // The server that issued the encrypted items (it refuses items it did not issue).
    const { server, home, env, id } = await responsesSession([{ reasoning: 'Same mind.', text: 'Still hello.' }]);
    const resumed = await home.run(['--resume', id, '--wire', 'responses', '--json', 'and now?'], env);
    expect(resumed.code).toBe(0);
    expect(server.violations).toEqual([]);
    expect(server.requests[2]!.input.filter((item) => item.type === 'reasoning').map((item) => item.id)).toEqual(['rs_1']);
    expect(resumed.stdout).not.toContain('context_warning');
    expect(resumed.stderr).toBe('');
  });
});
