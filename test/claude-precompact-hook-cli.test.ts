/**
 * Claude Code's PreCompact hook (from ~/.claude/settings.json) through the built CLI: a continued
 * session that no longer fits a small window is compacted, and the hook runs first, with
 * `trigger: "auto"`, before the summary request reaches the model.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startChatServer } from './support/chat-server.js';
import { cliHome } from './support/cli-process.js';

const home = cliHome();
afterAll(() => home.cleanup());

// Records the event, and how many model requests the server had seen by then.
const RECORD = `let raw = '';
process.stdin.on('data', (c) => (raw += c)).on('end', async () => {
  const event = JSON.parse(raw);
  require('fs').appendFileSync(process.env.SEEN_FILE, JSON.stringify({ ...event, matcher: process.argv[2], seen_requests: Number(require('fs').readFileSync(process.env.COUNT_FILE, 'utf8')) }) + '\\n');
});`;

describe("Claude Code's PreCompact hook", () => {
  it('runs the group matching trigger "auto" before an automatic compaction’s summary request, not before a compaction with nothing to summarise', async () => {
    const claudeDir = join(home.env.HOME, '.claude');
    mkdirSync(claudeDir, { recursive: true });
    writeFileSync(join(claudeDir, 'record.js'), RECORD);
    writeFileSync(join(claudeDir, 'settings.json'), JSON.stringify({ hooks: { PreCompact: ['auto', 'manual'].map((matcher) => ({ matcher, hooks: [{ type: 'command', command: `node ${join(claudeDir, 'record.js')} ${matcher}` }] })) } }));
    const seenFile = join(home.root, 'seen.jsonl');
    const countFile = join(home.root, 'count');
    writeFileSync(countFile, '0');
    const chat = await startChatServer([
      { text: 'one' },
      () => {
        writeFileSync(countFile, String(chat.requests.length));
        return { text: 'Earlier: the user described the first long task.' };
      },
      { text: 'after compaction' },
    ]);
    try {
      const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: chat.url, VIBE_MODEL: 'test-model', SEEN_FILE: seenFile, COUNT_FILE: countFile };
      const words = (tag: string, count: number) => Array.from({ length: count }, (_, i) => `${tag}${i}`).join(' ');
      const first = await home.run([`first task: ${words('alpha', 1500)}`, '--context-window', '4096'], env);
      expect(first.stdout.trim()).toBe('one');
      expect(readFileSync(countFile, 'utf8')).toBe('0');
      const second = await home.run(['--continue', `second task: ${words('beta', 700)}`, '--context-window', '4096'], env);
      expect(second.stdout.trim()).toBe('after compaction');
      const seen = readFileSync(seenFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
      // Only the group whose matcher is the trigger ran; the first run, a single turn, had nothing to compact.
      expect(seen).toEqual([expect.objectContaining({ hook_event_name: 'PreCompact', trigger: 'auto', matcher: 'auto', custom_instructions: '', cwd: home.workspace, session_id: expect.stringMatching(/./) })]);
      // The hook ran before the summary request (the second the server saw) was answered.
      expect(seen[0].seen_requests).toBe(0);
      expect(chat.requests).toHaveLength(3);
      expect(chat.violations).toEqual([]);
    } finally {
      await chat.close();
    }
  }, 60_000);
});
