import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { CLI, cliHome } from './support/cli-process.js';
import { cleanedAfterEach } from './support/editor-cleanup.js';

const { agents, servers, homes } = cleanedAfterEach<ChatServer>();

/**
 * The editor's session runs through the same conversation core as a terminal run: a custom
 * command expands, a blocking Stop hook sends the agent back to work, and the session file holds
 * the request records `replay` needs.
 */
describe('vibe-agent acp drives the conversation core', () => {
  it('expands a custom command, follows a blocking Stop hook, and records requests so replay accepts the editor session', async () => {
    const server = await startChatServer([{ text: 'Hello, Ada.' }, { text: 'Tests pass.' }]);
    servers.push(server);
    const home = cliHome();
    homes.push(home);
    mkdirSync(join(home.workspace, '.vibe-agent', 'commands'), { recursive: true });
    writeFileSync(join(home.workspace, '.vibe-agent', 'commands', 'greet.md'), '---\ndescription: greet someone\n---\nSay hello to $ARGUMENTS.\n');
    const bin = join(home.root, 'bin');
    mkdirSync(bin);
    const hook = join(bin, 'not-done');
    // Blocks the first stop only: the agent is sent back once, then lets go.
    writeFileSync(hook, `#!/bin/sh\ncat >> "${bin}/stops.jsonl"; echo >> "${bin}/stops.jsonl"\nif [ ! -f "${bin}/once" ]; then touch "${bin}/once"; echo "run the tests first" >&2; exit 2; fi\nexit 0\n`);
    chmodSync(hook, 0o755);
    mkdirSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent'), { recursive: true });
    writeFileSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent', 'config.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: hook }] }] } }));

    const env = { ...home.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' };
    const child = spawn(process.execPath, [CLI, 'acp'], { cwd: home.workspace, env, stdio: ['pipe', 'pipe', 'pipe'] });
    agents.push(child);
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const connection = client({ name: 'test-editor' }).connect(ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));
    await connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'test-editor', version: '1.0.0' } });
    const { sessionId } = await connection.agent.request('session/new', { cwd: home.workspace, mcpServers: [] });
    const answer = await connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/greet Ada' }] });
    expect(answer.stopReason).toBe('end_turn');

    // The command's expansion is what the model got, and the Stop hook's reason went back as the next input.
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.messages.at(-1)).toMatchObject({ role: 'user', content: 'Say hello to Ada.' });
    expect(server.requests[1]!.messages.slice(-2)).toMatchObject([{ role: 'assistant', content: 'Hello, Ada.' }, { role: 'user', content: 'run the tests first' }]);
    const stops = readFileSync(join(bin, 'stops.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
    expect(stops.map((stop) => stop.stop_hook_active)).toEqual([false, true]);

    connection.close();
    child.stdin!.end();
    expect(await new Promise((resolve) => child.once('close', resolve))).toBe(0);
    expect(stderr).toBe('');

    // The editor's session holds its requests and numbered events: replay accepts it, offline.
    const [file] = home.sessionFiles();
    const records = readFileSync(home.sessionPath(file!), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(records.filter((record) => record.type === 'request')).toHaveLength(2);
    const seqs = records.filter((record) => typeof record.seq === 'number').map((record) => record.seq);
    expect(seqs.length).toBeGreaterThan(4);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    const replayed = await home.run(['replay', sessionId]);
    expect(replayed.stdout).toContain('identical');
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(server.violations).toEqual([]);
  }, 120_000);
});
