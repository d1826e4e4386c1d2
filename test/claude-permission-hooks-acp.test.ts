/**
 * Claude Code's PermissionRequest and Notification hooks (from the user's ~/.claude/settings.json)
 * around the questions `vibe-agent acp` puts to an editor, driven by the ACP SDK's client over
 * stdio: a hook's `decision.behavior` answers a question so the editor is never asked; a question
 * no hook answers is announced to Notification, then asked.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream, type RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { startChatServer } from './support/chat-server.js';
import { CLI, cliHome } from './support/cli-process.js';

const home = cliHome();
afterAll(() => home.cleanup());

// Allows Write, denies Bash, leaves the rest to the user; records every event it is given.
const DECIDE = `let raw = '';
process.stdin.on('data', (c) => (raw += c)).on('end', () => {
  const event = JSON.parse(raw);
  require('fs').appendFileSync(process.env.SEEN_FILE, raw + '\\n');
  if (event.hook_event_name !== 'PermissionRequest') return;
  const behavior = { Write: 'allow', Bash: 'deny' }[event.tool_name];
  if (behavior) console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior } } }));
});`;

describe("Claude Code's PermissionRequest and Notification hooks in vibe-agent acp", () => {
  it('Write is allowed and Bash denied by the hook without asking the editor; Edit, which no hook answers, is announced to Notification and asked', async () => {
    const seenFile = join(home.root, 'seen.jsonl');
    const claudeDir = join(home.env.HOME, '.claude');
    mkdirSync(claudeDir, { recursive: true });
    writeFileSync(join(claudeDir, 'decide.js'), DECIDE);
    const hook = [{ hooks: [{ type: 'command', command: `node ${join(claudeDir, 'decide.js')}` }] }];
    writeFileSync(join(claudeDir, 'settings.json'), JSON.stringify({ hooks: { PermissionRequest: hook, Notification: hook } }));
    writeFileSync(join(home.workspace, 'greet.txt'), 'hello\n');
    mkdirSync(join(home.workspace, 'build'));
    const model = await startChatServer([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'new.txt', content: 'made\n' } }, { name: 'bash', arguments: { command: 'rm -rf build' } }, { name: 'edit_file', arguments: { path: 'greet.txt', old_string: 'hello', new_string: 'hello world' } }] },
      { text: 'Done.' },
    ]);
    const agentProcess = spawn(process.execPath, [CLI, 'acp'], {
      cwd: home.workspace,
      env: { ...home.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: model.url, VIBE_MODEL: 'test-model', SEEN_FILE: seenFile },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      const questions: RequestPermissionRequest[] = [];
      const app = client({ name: 'hook-editor' })
        .onNotification('session/update', () => undefined)
        .onRequest('session/request_permission', ({ params }) => {
          questions.push(params);
          return { outcome: { outcome: 'selected', optionId: params.options.find((option) => option.kind === 'allow_once')!.optionId } };
        });
      const connection = app.connect(ndJsonStream(Writable.toWeb(agentProcess.stdin) as WritableStream<Uint8Array>, Readable.toWeb(agentProcess.stdout) as ReadableStream<Uint8Array>));
      await connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'hook-editor', version: '1.0.0' } });
      const { sessionId } = await connection.agent.request('session/new', { cwd: home.workspace, mcpServers: [] });
      expect((await connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'make, clean, greet' }] })).stopReason).toBe('end_turn');

      expect(questions).toHaveLength(1);
      expect(questions[0]!.toolCall.title).toContain('greet.txt');
      expect(readFileSync(join(home.workspace, 'new.txt'), 'utf8')).toBe('made\n');
      expect(existsSync(join(home.workspace, 'build'))).toBe(true);
      expect(readFileSync(join(home.workspace, 'greet.txt'), 'utf8')).toBe('hello world\n');
      const results = model.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
      expect(results[1]).toMatch(/^Denied/);

      const seen = readFileSync(seenFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
      const requests = seen.filter((event) => event.hook_event_name === 'PermissionRequest');
      expect(requests.map((event) => event.tool_name).sort()).toEqual(['Bash', 'Edit', 'Write']);
      expect(requests.find((event) => event.tool_name === 'Write')).toMatchObject({ tool_input: { file_path: join(home.workspace, 'new.txt'), content: 'made\n' }, permission_mode: 'default', tool_use_id: expect.any(String) });
      expect(seen.filter((event) => event.hook_event_name === 'Notification')).toEqual([
        expect.objectContaining({ message: 'vibe-agent needs your permission to use Edit', notification_type: 'permission_prompt', cwd: home.workspace }),
      ]);
      expect(model.violations).toEqual([]);
      connection.close();
      agentProcess.stdin.end();
      expect(await new Promise((resolve) => agentProcess.once('close', resolve))).toBe(0);
    } finally {
      if (agentProcess.exitCode === null) agentProcess.kill();
      await model.close();
    }
  }, 60_000);
});
