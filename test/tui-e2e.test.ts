/**
 * The interactive UI end to end, in a real terminal: `node dist/cli/main.js` runs in a tmux pane
 * against the local Chat Completions server; the test types, answers the approval, presses
 * Ctrl-C mid-stream and reads the screen.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer, type ServerStep } from './support/chat-server.js';
import { CLI } from './support/cli-process.js';
import { terminalEnv } from './support/tui-session.js';
import { cleanupAfterEach, requireTmux, startInTmux, type TmuxPane } from './support/tmux.js';

const cleanups = cleanupAfterEach();
requireTmux();

async function session(script: ServerStep[], options: { width?: number; height?: number; extraEnv?: Record<string, string>; args?: string[]; home?: string } = {}) {
  const server: ChatServer = await startChatServer(script);
  cleanups.push(() => server.close());
  let home = options.home;
  if (!home) {
    const fresh = mkdtempSync(join(tmpdir(), 'vibe-tui-'));
    cleanups.push(() => rmSync(fresh, { recursive: true, force: true }));
    mkdirSync(join(fresh, 'project'));
    home = fresh;
  }
  const workspace = join(home, 'project');
  const pane: TmuxPane = await startInTmux([process.execPath, CLI, ...(options.args ?? ['--tools', 'bash,calculator'])], {
    cwd: workspace,
    width: options.width ?? 100,
    height: options.height ?? 30,
    env: terminalEnv(home, server.url, options.extraEnv),
  });
  cleanups.push(() => pane.kill());
  return { server, pane, home, workspace };
}

describe('the interactive terminal UI (tmux)', () => {
  it('asks before a shell call, shows the tool line and the Markdown answer, cancels a stream with Ctrl-C, and exits with /exit', async () => {
    const { server, pane, home } = await session([
      { toolCalls: [{ name: 'bash', arguments: { command: 'echo hello-from-bash' } }] },
      { text: '# Done\n\nThe command printed **hello-from-bash**.\n\n- first point\n- second point\n' },
      { kind: 'slow', reply: { text: 'Once upon a time there was a long story. '.repeat(40) }, frameDelayMs: 40 },
      { text: 'Still here.' },
    ]);
    await pane.waitFor('/help for commands');

    await pane.send(['run the greeting'], { literal: true });
    await pane.send(['Enter']);
    const asking = await pane.waitFor('Allow bash?');
    expect(asking).toContain('echo hello-from-bash');
    expect(server.requests).toHaveLength(1);
    await pane.send(['y'], { literal: true });

    const answered = await pane.waitFor('second point');
    expect(answered).toMatch(/✓ bash command="echo hello-from-bash" \(\d+ ms\)/);
    expect(answered).toContain('│ hello-from-bash');
    expect(answered).toContain('• first point');
    expect(answered).not.toContain('**'); // bold markers are rendered, not shown
    const toolResult = server.requests[1]!.messages.find((m) => m.role === 'tool');
    expect(toolResult?.content).toBe('hello-from-bash\n');

    await pane.send(['tell me a story'], { literal: true });
    await pane.send(['Enter']);
    await pane.waitFor('Once upon a time there was');
    await pane.send(['C-c']);
    const aborted = await pane.waitFor('Aborted.');
    expect(aborted).toMatch(/\n› *\n[^\n]*test-model/); // the prompt is back, above the status line
    expect(server.requests).toHaveLength(3);

    // The conversation continues after the abort: the next turn carries the earlier ones.
    await pane.send(['and now?'], { literal: true });
    await pane.send(['Enter']);
    await pane.waitFor('Still here.');
    const history = server.requests[3]!.messages.map((m) => `${m.role}:${typeof m.content === 'string' ? m.content.slice(0, 20) : ''}`);
    expect(history).toEqual(expect.arrayContaining(['user:run the greeting', 'user:tell me a story', 'user:and now?']));

    await pane.send(['/ex'], { literal: true });
    await pane.send(['Tab']);
    await pane.waitFor('› /exit');
    await pane.send(['Enter']);
    expect(await pane.waitForExit()).toBe(0);
    expect(server.violations).toEqual([]);

    const historyDir = join(home, 'data', 'vibe-agent', 'history');
    const [file] = readdirSync(historyDir);
    const lines = readFileSync(join(historyDir, file!), 'utf8').trim().split('\n').map((line) => JSON.parse(line).text);
    expect(lines).toEqual(['run the greeting', 'tell me a story', 'and now?', '/exit']);
  });

  it('shows a failed command by its tail and exit code; Ctrl-C at an approval denies and stops the turn, the prompt comes back; at an empty prompt it asks first', async () => {
    const failing = "printf 'banner 1\\nbanner 2\\nbanner 3\\nbanner 4\\nbanner 5\\n'; echo '    FAIL: expected 3'; exit 3";
    const { server, pane } = await session([
      { toolCalls: [{ name: 'bash', arguments: { command: failing } }] },
      { toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf build' } }] },
      { text: 'Understood, I left build alone.' },
    ]);
    await pane.waitFor('/help for commands');
    await pane.send(['run the checks'], { literal: true });
    await pane.send(['Enter']);
    await pane.waitFor('Allow bash?');
    await pane.send(['y'], { literal: true });

    const asking = await pane.waitFor('Allow bash? rm -rf build');
    expect(asking).toContain('… 2 earlier lines');
    expect(asking).toContain('│ banner 5');
    expect(asking).toContain('│     FAIL: expected 3'); // indentation kept
    expect(asking).toContain('│ exit code: 3');
    expect(asking).not.toContain('│ banner 1');

    await pane.send(['C-c']);
    const stopped = await pane.waitFor((screen) => screen.includes('⊘ Aborted.') && !screen.trimEnd().split('\n').at(-1)!.includes('working'));
    expect(stopped).toContain('? bash rm -rf build denied · the turn stops');
    expect(server.requests).toHaveLength(2); // the model is not asked again

    // A second Ctrl-C exits: at once when it comes within a second of the first, else after "Press Ctrl-C again".
    await pane.send(['C-c']);
    const next = await pane.waitFor((screen) => screen.includes('Press Ctrl-C again to exit') || /\[exited \d+\]/.test(screen));
    if (!/\[exited \d+\]/.test(next)) await pane.send(['C-c']);
    expect(await pane.waitForExit()).toBe(0);
  });

  it('a one-shot run: n at the approval question denies the call and the run goes on to its answer (Esc and Ctrl-C stop it: one-shot-approval-keys.test.ts)', async () => {
    const { server, pane } = await session([{ toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf build' } }] }, { text: 'Left build alone.' }], { args: ['clean up', '--tools', 'bash', '--no-session'] });
    await pane.waitFor('(Esc or Ctrl-C = no and stop the run)');
    await pane.send(['n']);
    const screen = await pane.waitFor('Left build alone.');
    expect(screen).toMatch(/no and stop the run\) *\n {2}denied\n/);
    expect(await pane.waitForExit()).toBe(0);
    expect(server.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Denied: the user declined this call.' });
  });

  it('in a narrow terminal with NO_COLOR: pasted lines stay in the prompt, answers wrap, a resize redraws', async () => {
    const answer = 'A deliberately long answer that has to wrap over several rows of this narrow terminal.';
    const { server, pane } = await session([{ text: answer }], { width: 40, height: 20, extraEnv: { NO_COLOR: '1' }, args: [] });
    await pane.waitFor('/help');
    await pane.paste('first pasted line\nsecond pasted line');
    await pane.waitFor('second pasted line');
    expect(server.requests).toHaveLength(0); // the pasted newline did not send it
    await pane.send(['typed \\'], { literal: true });
    await pane.send(['Enter']); // a trailing backslash makes Enter a new line
    await pane.send(['last'], { literal: true });
    await pane.send(['Enter']);
    await server.waitForRequest(1);
    expect(server.requests[0]!.messages.at(-1)).toEqual({ role: 'user', content: 'first pasted line\nsecond pasted linetyped \nlast' });

    const screen = await pane.waitFor(/^terminal\.$/m);
    expect(screen.split('\n').every((row) => row.length <= 40)).toBe(true);
    expect(screen).toContain('A deliberately long answer that has to');
    const escapes = await pane.screen({ escapes: true });
    expect(escapes).not.toMatch(/\x1b\[(?:[0-9;]*;)?3[0-7]m/); // no colours

    // Ctrl-Z sends SIGTSTP. Under this wrapper shell (no job control) the kernel discards it, as
    // it does for any orphaned process group: the prompt must come back rather than stay blank.
    // (The stop-and-continue path is covered in-process, in tui-session.test.ts.)
    await pane.send(['half typed'], { literal: true });
    await pane.waitFor('› half typed');
    await pane.send(['C-z', 'C-e', '!']);
    await pane.waitFor('› half typed!');
    await pane.send(['C-u']);

    await pane.resize(30, 20);
    await pane.waitFor((s) => s.trimEnd().split('\n').at(-1)!.startsWith('test-model') && s.trimEnd().split('\n').at(-1)!.length <= 29);
    await pane.send(['C-d']);
    expect(await pane.waitForExit()).toBe(0);
  });

  it('records the conversation as a session: /memory and /sessions show the real files, --continue picks it up', async () => {
    const first = await session([{ text: 'Noted: the answer is 42.' }], { args: [] });
    writeFileSync(join(first.workspace, 'AGENTS.md'), '# House rules\nRun the tests before committing.\n');
    await first.pane.waitFor('/help');
    await first.pane.send(['remember 42'], { literal: true });
    await first.pane.send(['Enter']);
    await first.pane.waitFor('Noted: the answer is 42.');
    await first.pane.send(['/memory'], { literal: true });
    await first.pane.send(['Enter']);
    await first.pane.waitFor(/AGENTS\.md 3 lines/);
    await first.pane.send(['/sessions'], { literal: true });
    await first.pane.send(['Enter']);
    const listed = await first.pane.waitFor(/\d{8}-\d{6}-[0-9a-f]{4} {2}remember 42 {2}.* · 1 turn · /);
    const id = /(\d{8}-\d{6}-[0-9a-f]{4}) {2}remember 42/.exec(listed)![1]!;
    await first.pane.send(['/compact'], { literal: true });
    await first.pane.send(['Enter']);
    await first.pane.waitFor('Nothing old enough to compact yet.');
    await first.pane.send(['/exit'], { literal: true });
    await first.pane.send(['Enter']);
    expect(await first.pane.waitForExit()).toBe(0);
    await first.pane.kill();

    const second = await session([{ text: 'You said 42.' }], { args: ['--continue'], home: first.home });
    const resumed = await second.pane.waitFor('Continuing a conversation of 3 messages.');
    // The earlier exchange is drawn again above the note, as it was shown.
    expect(resumed).toMatch(/\n› remember 42\n\nNoted: the answer is 42\.\n\nContinuing a conversation of 3 messages\./);
    await second.pane.send(['what did I say?'], { literal: true });
    await second.pane.send(['Enter']);
    await second.pane.waitFor('You said 42.');
    const sent = second.server.requests[0]!.messages.map((m) => `${m.role}:${String(m.content).slice(0, 30)}`);
    expect(sent.slice(1)).toEqual(['user:remember 42', 'assistant:Noted: the answer is 42.', 'user:what did I say?']);
    expect(String(second.server.requests[0]!.messages[0]!.content)).toContain('Run the tests before committing.'); // memory in the system prompt
    await second.pane.send(['/sessions'], { literal: true });
    await second.pane.send(['Enter']);
    await second.pane.waitFor(new RegExp(`${id} {2}remember 42 {2}.* · 2 turns · `));
    // /resume alone opens a picker of the saved sessions.
    await second.pane.send(['/resume'], { literal: true });
    await second.pane.send(['Enter']);
    const picker = await second.pane.waitFor('Resume which session?');
    expect(picker).toMatch(new RegExp(`${id} {2}remember 42`));
    await second.pane.send(['Escape']);
    await second.pane.waitFor(/Resume which session\? .*cancelled/);
    await second.pane.send(['C-d']);
    expect(await second.pane.waitForExit()).toBe(0);
  });
});
