import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { spawnCli } from './support/cli-process.js';

const root = mkdtempSync(join(tmpdir(), 'vibe-hooks-'));
const chats: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(chats.splice(0).map((server) => server.close()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
/** A home whose user config holds `hooks`, a workspace, and the hook scripts (shell) in `bin/`. */
function setup(hooks: unknown, scripts: Record<string, string>, project?: unknown) {
  const dir = join(root, `case-${++count}`);
  const workspace = join(dir, 'workspace');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  mkdirSync(join(dir, 'home', '.config', 'vibe-agent'), { recursive: true });
  mkdirSync(workspace);
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(dir, 'bin', name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, 'bin', name), 0o755);
  }
  writeFileSync(join(dir, 'home', '.config', 'vibe-agent', 'config.json'), JSON.stringify({ hooks }));
  if (project) {
    mkdirSync(join(workspace, '.vibe-agent'));
    writeFileSync(join(workspace, '.vibe-agent', 'config.json'), JSON.stringify({ hooks: project }));
  }
  const env = { HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'home', '.config'), XDG_DATA_HOME: join(dir, 'home', 'data'), VIBE_MODEL: 'test-model', OPENAI_API_KEY: 'sk-test' };
  return { dir, workspace, env, bin: (name: string) => join(dir, 'bin', name) };
}

const command = (path: string, timeout?: number) => ({ type: 'command', command: path, ...(timeout ? { timeout } : {}) });
const toolMessage = (chat: ChatServer, request: number) => chat.requests[request]!.messages.filter((m) => m.role === 'tool').at(-1)?.content;

describe("hooks in Claude Code's format", () => {
  it('PreToolUse matching "Bash" blocks with exit 2 (stderr to the model) and sees the call as JSON on stdin', async () => {
    const { workspace, env, dir } = setup({ PreToolUse: [{ matcher: 'Bash', hooks: [command(join(root, `case-${count + 1}`, 'bin', 'guard'))] }] }, { guard: `cat > "$(dirname "$0")/input.json"\necho "rm is not allowed here" >&2\nexit 2` });
    const chat = await startChatServer([{ toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf build' } }] }, { text: 'ok, I will not.' }]);
    chats.push(chat);
    const ran = await spawnCli(['clean up', '--no-session', '--yes'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(ran.stdout.trim()).toBe('ok, I will not.');
    expect(toolMessage(chat, 1)).toBe('Blocked by a PreToolUse hook: rm is not allowed here');
    const input = JSON.parse(readFileSync(join(dir, 'bin', 'input.json'), 'utf8'));
    expect(input).toMatchObject({ hook_event_name: 'PreToolUse', cwd: workspace, tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, session_id: '' });
  });

  it('permissionDecision "allow" runs a call that would otherwise be denied; PostToolUse additionalContext reaches the model; UserPromptSubmit stdout goes with the prompt', async () => {
    const hooks = {
      UserPromptSubmit: [{ hooks: [command('echo "the build uses make"')] }],
      PreToolUse: [{ matcher: 'Bash|Write', hooks: [command(`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`)] }],
      PostToolUse: [{ matcher: 'bash', hooks: [command(`echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"remember to run the tests"}}'`)] }],
    };
    const { workspace, env } = setup(hooks, {});
    const chat = await startChatServer([{ toolCalls: [{ name: 'bash', arguments: { command: 'echo hello' } }] }, { text: 'done' }]);
    chats.push(chat);
    // No --yes and no terminal: without the hook, bash would be denied.
    const ran = await spawnCli(['say hello', '--no-session'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(ran.stdout.trim()).toBe('done');
    expect(chat.requests[0]!.messages.at(-1)!.content).toBe('say hello\n\n<hook-context>\nthe build uses make\n</hook-context>');
    expect(toolMessage(chat, 1)).toContain('hello');
    expect(toolMessage(chat, 1)).toContain('remember to run the tests');
  });

  it('a hook that hangs past its timeout, one that crashes and one that prints broken JSON are warnings; the run goes on', async () => {
    const hooks = {
      PreToolUse: [{ hooks: [command('sleep 30', 1), command('exit 7'), command(`echo '{"decision": '`)] }],
      Stop: [{ hooks: [command('exit 0')] }],
    };
    const { workspace, env } = setup(hooks, {});
    const chat = await startChatServer([{ toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] }, { text: 'finished' }]);
    chats.push(chat);
    const ran = await spawnCli(['read it', '--no-session'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(ran.stdout.trim()).toBe('finished');
    expect(ran.stderr).toContain('PreToolUse hook `sleep 30` it did not finish within 1 s and was stopped; it was ignored.');
    expect(ran.stderr).toContain('PreToolUse hook `exit 7` exited with code 7; it was ignored.');
    expect(ran.stderr).toContain('printed output that starts like JSON but is not; it was ignored.');
  });

  it("UserPromptSubmit exit 2 stops the prompt; a project's hooks are not run until approved", async () => {
    const { workspace, env } = setup({ UserPromptSubmit: [{ hooks: [command('echo "no secrets in prompts" >&2; exit 2')] }] }, {}, { SessionStart: [{ hooks: [command('touch project-hook-ran')] }] });
    const chat = await startChatServer([]);
    chats.push(chat);
    const ran = await spawnCli(['my password is hunter2', '--no-session'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('the UserPromptSubmit hook blocked the prompt: no secrets in prompts');
    expect(ran.stderr).toContain('were not run: not approved for this workspace');
    expect(ran.stderr).toContain('--trust-project-mcp');
    expect(chat.requests).toHaveLength(0);
  });

  it('a Stop hook that blocks sends the agent back to work with its reason (stop_hook_active on the next stop); bounded at 3 continuations', async () => {
    const { workspace, env, dir } = setup({ Stop: [{ hooks: [command(join(root, `case-${count + 1}`, 'bin', 'not-done'))] }] }, {
      // Blocks with exit 2 the first time, with JSON after, forever: the bound ends it.
      'not-done': `cat >> "$(dirname "$0")/stops.jsonl"; echo >> "$(dirname "$0")/stops.jsonl"\nif [ ! -f "$(dirname "$0")/once" ]; then touch "$(dirname "$0")/once"; echo "run the tests first" >&2; exit 2; fi\necho '{"decision":"block","reason":"still not done"}'`,
    });
    const chat = await startChatServer([{ text: 'all done' }, { text: 'tests pass' }, { text: 'really done' }, { text: 'truly done' }]);
    chats.push(chat);
    const ran = await spawnCli(['fix it', '--no-session'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(chat.requests).toHaveLength(4);
    expect(chat.requests[1]!.messages.slice(-2)).toMatchObject([{ role: 'assistant', content: 'all done' }, { role: 'user', content: 'run the tests first' }]);
    expect(chat.requests[2]!.messages.at(-1)).toMatchObject({ role: 'user', content: 'still not done' });
    expect(ran.stderr).toContain('a Stop hook blocked the stop again after 3 continuations; the run ends anyway (its reason: still not done)');
    expect(ran.stdout).toContain('truly done');
    const stops = readFileSync(join(dir, 'bin', 'stops.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
    expect(stops.map((stop) => stop.stop_hook_active)).toEqual([false, true, true, true]);
    expect(stops[0]).toMatchObject({ hook_event_name: 'Stop', stop_reason: 'answered' });
  });

  it("Gemini CLI's hooks (BeforeTool, ms timeouts, Gemini's tool names) and Codex's ([hooks] in config.toml) are read unchanged", async () => {
    const { workspace, env, dir } = setup({}, { 'gemini-guard': `cat > "$(dirname "$0")/gemini-input.json"\necho '{"decision":"deny","reason":"no shell from Gemini rules"}'` });
    const home = env.HOME;
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ hooks: { enabled: true, BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ name: 'guard', type: 'command', command: join(dir, 'bin', 'gemini-guard'), timeout: 5000 }] }], BeforeModel: [{ hooks: [command('true')] }] } }));
    mkdirSync(join(home, '.codex'), { recursive: true });
    writeFileSync(join(home, '.codex', 'config.toml'), `model = "o3"\n[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\ntype = "command"\ncommand = "echo codex says hi"\n`);
    const chat = await startChatServer([{ toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] }, { text: 'understood' }]);
    chats.push(chat);
    const ran = await spawnCli(['list files', '--no-session', '--yes'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(ran.stdout.trim()).toBe('understood');
    expect(chat.requests[0]!.messages.at(-1)!.content).toBe('list files\n\n<hook-context>\ncodex says hi\n</hook-context>');
    expect(toolMessage(chat, 1)).toBe('Blocked by a PreToolUse hook: no shell from Gemini rules');
    expect(JSON.parse(readFileSync(join(dir, 'bin', 'gemini-input.json'), 'utf8'))).toMatchObject({ hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'ls' } });
    expect(ran.stderr).toContain("Gemini CLI's BeforeModel is not run by vibe-agent");
  });
});
