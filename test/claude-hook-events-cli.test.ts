/**
 * Claude Code's PostToolUseFailure and SessionEnd events, run from a project's
 * `.claude/settings.json` through the built CLI: a failed call goes to PostToolUseFailure (with
 * `error`), not PostToolUse; a denied call to neither; SessionEnd runs once the run is over.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startChatServer } from './support/chat-server.js';
import { spawnCli } from './support/cli-process.js';

const root = mkdtempSync(join(tmpdir(), 'vibe-claude-hook-events-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Records each event it is given; after a failure, tells the model what to do about it.
const RECORD = `let raw = '';
process.stdin.on('data', (c) => (raw += c)).on('end', () => {
  const event = JSON.parse(raw);
  require('fs').appendFileSync(process.env.CLAUDE_PROJECT_DIR + '/.claude/seen.jsonl', raw + '\\n');
  if (event.hook_event_name === 'PostToolUseFailure') {
    console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'run npm install first' } }));
  }
});`;

describe("Claude Code's PostToolUseFailure and SessionEnd hooks", () => {
  it('a failed Read runs PostToolUseFailure (its additionalContext reaches the model), a read that works PostToolUse, a denied Bash neither; SessionEnd ends the run', async () => {
    const workspace = join(root, 'workspace');
    const home = join(root, 'home');
    mkdirSync(join(workspace, '.claude', 'hooks'), { recursive: true });
    mkdirSync(home, { recursive: true });
    writeFileSync(join(workspace, '.claude', 'hooks', 'record.js'), RECORD);
    writeFileSync(join(workspace, 'notes.txt'), 'hello\n');
    const record = [{ hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/record.js' }] }];
    const matched = [{ matcher: 'Bash|Read', hooks: record[0]!.hooks }];
    writeFileSync(join(workspace, '.claude', 'settings.json'), JSON.stringify({ hooks: { PostToolUse: matched, PostToolUseFailure: matched, SessionEnd: record } }));
    const chat = await startChatServer([
      { toolCalls: [{ name: 'bash', arguments: { command: 'make' } }, { name: 'read_file', arguments: { path: 'missing.txt' } }, { name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { text: 'noted' },
    ]);
    try {
      // No --yes and no terminal: bash is denied (it never ran).
      const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), VIBE_MODEL: 'test-model', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: chat.url };
      const ran = await spawnCli(['build it', '--no-session', '--trust-project-mcp'], { cwd: workspace, env });
      expect(ran.stdout.trim()).toBe('noted');
      expect(ran.stderr).not.toContain('is not run by vibe-agent');
      const seen = readFileSync(join(workspace, '.claude', 'seen.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
      expect(seen.map((event) => `${event.hook_event_name} ${event.tool_name ?? ''}`.trim()).sort()).toEqual(['PostToolUse Read', 'PostToolUseFailure Read', 'SessionEnd']);
      expect(seen.at(-1)).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'other', cwd: workspace, permission_mode: 'default' });
      const failure = seen.find((event) => event.hook_event_name === 'PostToolUseFailure');
      expect(failure).toMatchObject({ tool_input: { file_path: join(workspace, 'missing.txt') }, is_interrupt: false, tool_use_id: expect.any(String) });
      expect(failure.error).toContain('missing.txt');
      expect(failure).not.toHaveProperty('tool_response');
      const read = seen.find((event) => event.hook_event_name === 'PostToolUse');
      expect(read).toMatchObject({ tool_input: { file_path: join(workspace, 'notes.txt') }, tool_response: { is_error: false } });
      const results = chat.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
      expect(results[0]).not.toContain('run npm install first');
      expect(results[1]).toContain('run npm install first');
      expect(results[2]).not.toContain('run npm install first');
      expect(chat.violations).toEqual([]);
    } finally {
      await chat.close();
    }
  });
});
