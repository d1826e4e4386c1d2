import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { spawnCli } from './support/cli-process.js';

const root = mkdtempSync(join(tmpdir(), 'vibe-claude-hooks-'));
const chats: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(chats.splice(0).map((server) => server.close()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Safety hooks as Claude Code users publish them: a script reading the event from stdin.
const NO_RM_RF = `let raw = '';
process.stdin.on('data', (c) => (raw += c)).on('end', () => {
  const event = JSON.parse(raw);
  require('fs').appendFileSync(process.env.CLAUDE_PROJECT_DIR + '/.claude/seen.jsonl', raw + '\\n');
  if (/\\brm\\s+-rf\\b/.test(event.tool_input.command || '')) {
    process.stderr.write('rm -rf is blocked by project policy');
    process.exit(2);
  }
});`;
const NO_ENV_EDITS = `let raw = '';
process.stdin.on('data', (c) => (raw += c)).on('end', () => {
  const event = JSON.parse(raw);
  require('fs').appendFileSync(process.env.CLAUDE_PROJECT_DIR + '/.claude/seen.jsonl', raw + '\\n');
  if (require('path').basename(event.tool_input.file_path || '') === '.env') {
    console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Editing .env files is not allowed' } }));
  }
});`;
const REWRITE = `let raw = '';
process.stdin.on('data', (c) => (raw += c)).on('end', () => {
  const { tool_input } = JSON.parse(raw);
  if (tool_input.command === 'npm test') console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { ...tool_input, command: 'echo rewritten-by-hook' } } }));
  if (tool_input.command === 'make') console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { timeout: 'soon' } } }));
});`;

const ASK = `let raw = '';
process.stdin.on('data', (c) => (raw += c)).on('end', () => {
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'a person should see this first' } }));
});`;

let count = 0;
/** A workspace with `.claude/settings.json` (and scripts in `.claude/hooks/`), and an empty home. */
function project(settings: unknown, scripts: Record<string, string> = {}, local?: unknown) {
  const dir = join(root, `case-${++count}`);
  const workspace = join(dir, 'workspace');
  mkdirSync(join(workspace, '.claude', 'hooks'), { recursive: true });
  mkdirSync(join(dir, 'home'), { recursive: true });
  for (const [name, body] of Object.entries(scripts)) writeFileSync(join(workspace, '.claude', 'hooks', name), body);
  writeFileSync(join(workspace, '.claude', 'settings.json'), JSON.stringify(settings));
  if (local) writeFileSync(join(workspace, '.claude', 'settings.local.json'), JSON.stringify(local));
  const env = { HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'home', '.config'), XDG_DATA_HOME: join(dir, 'home', 'data'), VIBE_MODEL: 'test-model', OPENAI_API_KEY: 'sk-test' };
  return { workspace, env, home: env.HOME };
}

const node = (script: string) => ({ type: 'command', command: `node "$CLAUDE_PROJECT_DIR"/.claude/hooks/${script}` });
const toolMessages = (chat: ChatServer) => chat.requests.at(-1)!.messages.filter((m) => m.role === 'tool').map((m) => m.content);

describe("a Claude Code project's .claude/settings.json hooks, unchanged", () => {
  it('once trusted: exit 2 on `rm -rf` in tool_input.command and permissionDecision "deny" on a .env file_path stop the calls, the model sees why; other calls run', async () => {
    const settings = {
      permissions: { allow: ['Bash(npm run lint)'] },
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [node('no-rm-rf.js')] },
          { matcher: 'Edit|Write|MultiEdit', hooks: [node('no-env-edits.js')] },
        ],
      },
    };
    const { workspace, env } = project(settings, { 'no-rm-rf.js': NO_RM_RF, 'no-env-edits.js': NO_ENV_EDITS });
    mkdirSync(join(workspace, 'build'));
    writeFileSync(join(workspace, '.env'), 'SECRET=1\n');
    const chat = await startChatServer([
      { toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf build' } }, { name: 'write_file', arguments: { path: '.env', content: 'SECRET=2\n' } }, { name: 'write_file', arguments: { path: 'notes.txt', content: 'hello\n' } }] },
      { text: 'understood' },
    ]);
    chats.push(chat);
    const ran = await spawnCli(['clean up', '--no-session', '--yes', '--trust-project-mcp'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(ran.stdout.trim()).toBe('understood');
    expect(toolMessages(chat)).toEqual(['Blocked by a PreToolUse hook: rm -rf is blocked by project policy', 'Blocked by a PreToolUse hook: Editing .env files is not allowed', expect.stringContaining('notes.txt')]);
    expect(existsSync(join(workspace, 'build'))).toBe(true);
    expect(readFileSync(join(workspace, '.env'), 'utf8')).toBe('SECRET=1\n');
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('hello\n');
    const seen = readFileSync(join(workspace, '.claude', 'seen.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(seen).toHaveLength(3);
    expect(seen).toContainEqual(expect.objectContaining({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, cwd: workspace, permission_mode: 'bypassPermissions', session_id: '', transcript_path: '' }));
    expect(seen).toContainEqual(expect.objectContaining({ tool_name: 'Write', tool_input: { file_path: join(workspace, '.env'), content: 'SECRET=2\n' } }));
  });

  it('permissionDecision "ask" over an allow rule: headless, the call is refused unrun and the run exits 4', async () => {
    const settings = { permissions: { allow: ['Bash(touch ran.txt)'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [node('ask.js')] }] } };
    const { workspace, env } = project(settings, { 'ask.js': ASK });
    const chat = await startChatServer([{ toolCalls: [{ name: 'bash', arguments: { command: 'touch ran.txt' } }] }, { text: 'could not' }]);
    chats.push(chat);
    const ran = await spawnCli(['make the file', '--no-session', '--trust-project-mcp'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(ran.code, ran.stderr).toBe(4);
    expect(existsSync(join(workspace, 'ran.txt'))).toBe(false);
    expect(toolMessages(chat)[0]).not.toContain('exit code 0');
  });

  it('updatedInput rewrites the call (mapped back to our names) and the rewritten call is validated again', async () => {
    const { workspace, env } = project({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [node('rewrite.js')] }] } }, { 'rewrite.js': REWRITE });
    const chat = await startChatServer([{ toolCalls: [{ name: 'bash', arguments: { command: 'npm test' } }, { name: 'bash', arguments: { command: 'make' } }] }, { text: 'done' }]);
    chats.push(chat);
    // No --yes and no terminal: bash runs only because the hook allowed it.
    const ran = await spawnCli(['test it', '--no-session', '--trust-project-mcp'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(ran.stdout.trim()).toBe('done');
    const [rewritten, invalid] = toolMessages(chat);
    expect(rewritten).toContain('rewritten-by-hook');
    expect(invalid).toContain('Invalid arguments for bash');
    expect(invalid).toContain('timeout_ms');
  });

  it("an untrusted project's .claude/settings.json hooks never run headless; the warning names the file", async () => {
    const { workspace, env } = project({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'touch hook-ran' }] }], PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'touch hook-ran' }] }] } });
    const chat = await startChatServer([{ toolCalls: [{ name: 'list_files', arguments: { pattern: '*' } }] }, { text: 'listed' }]);
    chats.push(chat);
    const ran = await spawnCli(['list', '--no-session', '--yes'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(ran.stdout.trim()).toBe('listed');
    expect(existsSync(join(workspace, 'hook-ran'))).toBe(false);
    expect(ran.stderr).toContain(`the hooks in ${join(workspace, '.claude', 'settings.json')} were not run: not approved for this workspace`);
  });

  it('~/.claude/settings.json, .claude/settings.json and .claude/settings.local.json all run, in that order; systemMessage reaches the user', async () => {
    const { workspace, env, home } = project({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo from the project' }] }] } }, {}, {
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `echo '{"systemMessage":"local hook says hi","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"from settings.local.json"}}'` }] }] },
    });
    mkdirSync(join(home, '.claude'));
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ matcher: '', hooks: [{ type: 'command', command: 'echo from the home' }] }] } }));
    const chat = await startChatServer([{ text: 'hi' }]);
    chats.push(chat);
    const ran = await spawnCli(['hello', '--no-session', '--trust-project-mcp'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(ran.stdout.trim()).toBe('hi');
    expect(chat.requests[0]!.messages.at(-1)!.content).toBe('hello\n\n<hook-context>\nfrom the home\nfrom the project\nfrom settings.local.json\n</hook-context>');
    expect(ran.stderr).toContain('local hook says hi');
  });

  it('continue: false stops the call (stopReason to the user) but at Stop lets the run end; a "prompt" hook is skipped, not the file; transcript_path is the session file', async () => {
    const { workspace, env, home } = project({});
    mkdirSync(join(home, '.claude'));
    const stopInput = join(home, 'stop-input.json');
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo '{"continue":false,"stopReason":"maintenance window"}'` }, { type: 'prompt', prompt: 'Is this safe?' }] }],
        Stop: [{ hooks: [{ type: 'command', command: `cat > '${stopInput}'; echo '{"continue":false,"stopReason":"enough for today"}'` }] }],
      },
    }));
    const chat = await startChatServer([{ toolCalls: [{ name: 'bash', arguments: { command: 'echo should-not-run' } }] }, { text: 'ok' }]);
    chats.push(chat);
    const ran = await spawnCli(['deploy', '--yes'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(ran.stdout.trim()).toBe('ok');
    expect(chat.requests).toHaveLength(2);
    expect(toolMessages(chat)).toEqual(['Blocked by a PreToolUse hook: maintenance window']);
    expect(ran.stderr).toContain('stopped: maintenance window');
    expect(ran.stderr).toContain('stopped: enough for today');
    expect(ran.stderr).toContain('a "prompt" hook at PreToolUse is not run (vibe-agent runs "command" hooks)');
    const stop = JSON.parse(readFileSync(stopInput, 'utf8'));
    expect(stop).toMatchObject({ hook_event_name: 'Stop', stop_hook_active: false });
    expect(stop.transcript_path).toMatch(/\.jsonl$/);
    expect(existsSync(stop.transcript_path)).toBe(true);
    expect(stop.session_id).not.toBe('');
  });
});
