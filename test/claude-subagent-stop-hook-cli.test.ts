/**
 * Claude Code's SubagentStop hook (from ~/.claude/settings.json) through the built CLI: when a
 * `task` subagent finishes, the hook runs; its block sends that subagent back to work with the
 * reason as its next message (Stop's rules: `stop_hook_active` on the next stop), and the parent
 * gets the subagent's final answer.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatRequestBody } from './support/chat-server.js';
import { cliHome } from './support/cli-process.js';

const home = cliHome();
afterAll(() => home.cleanup());

// Records the event; the first time, asks the subagent for one more thing.
const ONE_MORE = `let raw = '';
process.stdin.on('data', (c) => (raw += c)).on('end', () => {
  const event = JSON.parse(raw);
  require('fs').appendFileSync(process.env.SEEN_FILE, raw + '\\n');
  if (!event.stop_hook_active) console.log(JSON.stringify({ decision: 'block', reason: 'also count the lines' }));
});`;

const systemOf = (body: ChatRequestBody) => String(body.messages.find((m) => m.role === 'system')?.content ?? '');
const isChild = (body: ChatRequestBody) => systemOf(body).includes('You are a subagent');

describe("Claude Code's SubagentStop hook", () => {
  it('runs when a task subagent finishes; a block sends the subagent back to work and the parent gets its second answer', async () => {
    const claudeDir = join(home.env.HOME, '.claude');
    mkdirSync(claudeDir, { recursive: true });
    writeFileSync(join(claudeDir, 'one-more.js'), ONE_MORE);
    writeFileSync(join(claudeDir, 'settings.json'), JSON.stringify({ hooks: { SubagentStop: [{ hooks: [{ type: 'command', command: `node ${join(claudeDir, 'one-more.js')}` }] }] } }));
    const seenFile = join(home.root, 'seen.jsonl');
    const lead = [{ toolCalls: [{ name: 'task', arguments: { description: 'look around', prompt: 'look at the files' } }] }, { text: 'Done.' }];
    const child = [{ text: 'There are two files.' }, { text: 'Two files, 7 lines.' }];
    const chat = await startChatServer(
      Array.from({ length: 4 }, () => (body: ChatRequestBody) => (isChild(body) ? child.shift()! : lead.shift()!)),
      { conversationOf: (body) => (isChild(body) ? 'child' : 'lead') },
    );
    try {
      const ran = await home.run(['survey the workspace', '--tools', 'coding,agents', '--no-session', '--yes'], { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: chat.url, VIBE_MODEL: 'test-model', SEEN_FILE: seenFile });
      expect(ran.stdout.trim()).toBe('Done.');
      const childRequests = chat.requests.filter(isChild);
      expect(childRequests).toHaveLength(2);
      expect(childRequests[1]!.messages.at(-1)).toMatchObject({ role: 'user', content: 'also count the lines' });
      const toolResult = chat.requests.at(-1)!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
      expect(toolResult).toEqual(['Two files, 7 lines.']);
      const seen = readFileSync(seenFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
      expect(seen).toEqual([
        expect.objectContaining({ hook_event_name: 'SubagentStop', stop_hook_active: false, agent_type: 'general', agent_id: expect.stringContaining('task-1'), cwd: home.workspace }),
        expect.objectContaining({ hook_event_name: 'SubagentStop', stop_hook_active: true }),
      ]);
      expect(chat.violations).toEqual([]);
    } finally {
      await chat.close();
    }
  }, 60_000);
});
