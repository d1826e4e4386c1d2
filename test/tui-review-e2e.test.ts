/**
 * Review regressions that need the built CLI in a real terminal (tmux): what /clear means for
 * the recorded session, and a tool's escape sequences against a real terminal's title.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startChatServer, type ServerStep } from './support/chat-server.js';
import { CLI } from './support/cli-process.js';
import { terminalEnv } from './support/tui-session.js';
import { cleanupAfterEach, requireTmux, startInTmux } from './support/tmux.js';

const cleanups = cleanupAfterEach();
requireTmux();

function makeHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'vibe-tui-review-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  mkdirSync(join(home, 'project'));
  return home;
}

async function open(home: string, script: ServerStep[], args: string[], extraEnv: Record<string, string> = {}) {
  const server = await startChatServer(script);
  cleanups.push(() => server.close());
  const pane = await startInTmux([process.execPath, CLI, ...args], {
    cwd: join(home, 'project'),
    env: terminalEnv(home, server.url, extraEnv),
  });
  cleanups.push(() => pane.kill());
  const say = async (text: string) => {
    await pane.send([text], { literal: true });
    await pane.send(['Enter']);
  };
  return { server, pane, say };
}

describe('interactive review regressions (tmux)', () => {
  it('after /clear, --continue picks up the new conversation, not the cleared one', async () => {
    const home = makeHome();
    const first = await open(home, [{ text: 'Old answer.' }, { text: 'New answer.' }], []);
    await first.pane.waitFor('/help for commands');
    await first.say('old question');
    await first.pane.waitFor('Old answer.');
    await first.say('/clear');
    await first.pane.waitFor('Conversation cleared.');
    await first.say('new question');
    await first.pane.waitFor('New answer.');
    expect(first.server.requests[1]!.messages.map((m) => m.role)).toEqual(['system', 'user']);
    await first.say('/sessions');
    const listed = await first.pane.waitFor(/new question.*\n.*old question/);
    expect(listed).toMatch(/ {2}new question {2}.* · 1 turn · /);
    const newId = /(\S+) {2}new question/.exec(listed)![1]!;
    await first.say('/exit');
    expect(await first.pane.waitForExit()).toBe(0);
    await first.pane.kill();

    const second = await open(home, [{ text: 'Continued.' }], ['--continue']);
    await second.pane.waitFor('Continuing a conversation of 3 messages.');
    await second.say('and then?');
    await second.pane.waitFor('Continued.');
    await second.say(`/resume ${newId}`); // the session it is in: said so, not "in use by another run"
    await second.pane.waitFor(`/resume failed: this is the session you are in (${newId}).`);
    const sent = second.server.requests[0]!.messages.map((m) => `${m.role}:${String(m.content)}`);
    expect(sent.slice(1)).toEqual(['user:new question', 'assistant:New answer.', 'user:and then?']);
    await second.pane.send(['C-d']);
    expect(await second.pane.waitForExit()).toBe(0);
  });

  it("a tool's output cannot clear the screen or set the terminal's title", async () => {
    const home = makeHome();
    const command = "printf 'before\\033[2J\\033[H\\033]2;HIJACKED\\007after\\n'";
    const { pane, say } = await open(home, [{ toolCalls: [{ name: 'bash', arguments: { command } }] }, { text: 'All done.' }], ['--tools', 'bash']);
    await pane.waitFor('/help for commands');
    await say('run it');
    await pane.waitFor('Allow bash?');
    await pane.send(['y'], { literal: true });
    const screen = await pane.waitFor('All done.');
    expect(screen).toContain('› run it');
    expect(screen).toMatch(/│ before.*after/);
    const { stdout } = await promisify(execFile)('tmux', ['-L', pane.socket, 'display', '-p', '-t', 'main', '#{pane_title}']);
    expect(stdout).not.toContain('HIJACKED');
  });

  it('keeps keys and tokens out of the prompt history file, as the session files do', async () => {
    const home = makeHome();
    const secret = 'tok-4f9a8b7c6d5e';
    const { pane, say, server } = await open(home, [{ text: 'Configured.' }], [], { DEPLOY_TOKEN: secret });
    await pane.waitFor('/help for commands');
    await say(`use the token ${secret} for the deploy`);
    await pane.waitFor('Configured.');
    expect(JSON.stringify(server.requests[0]!.messages)).toContain(secret); // the model still gets what was typed
    await say('/exit');
    expect(await pane.waitForExit()).toBe(0);
    const dir = join(home, 'data', 'vibe-agent', 'history');
    const written = readdirSync(dir).map((file) => readFileSync(join(dir, file), 'utf8')).join('');
    expect(written).toContain('use the token [redacted] for the deploy');
    expect(written).not.toContain(secret);
  });

  it('/compact whose summary request fails leaves the conversation as it was, and says why', async () => {
    const home = makeHome();
    const answer = (n: number) => ({ text: `Answer ${n}: ${'some words that take up room in the context. '.repeat(35)}` });
    const { pane, say, server } = await open(
      home,
      [answer(1), answer(2), answer(3), answer(4), { kind: 'http_error', status: 400, body: { error: { message: 'summaries are not allowed here' } } }, { text: 'Still whole.' }],
      ['--context-window', '4600'],
    );
    await pane.waitFor('/help for commands');
    for (const n of [1, 2, 3, 4]) {
      await say(`question ${n}`);
      await server.waitForRequest(n);
      await pane.waitFor((screen) => screen.includes(`› question ${n}`) && /\n› *\n[^\n]*test-model/.test(screen));
    }
    await say('/compact');
    await pane.waitFor('/compact failed: the summary request failed');
    await say('go on');
    await pane.waitFor('Still whole.');
    const sent = server.requests[5]!.messages.filter((m) => m.role === 'user').map((m) => String(m.content));
    expect(sent).toEqual(['question 1', 'question 2', 'question 3', 'question 4', 'go on']);
  });

  it('a session store that cannot be written is reported once; the conversation goes on', async () => {
    const home = makeHome();
    writeFileSync(join(home, 'not-a-dir'), 'x');
    const { pane, say } = await open(home, [{ text: 'First answer.' }, { text: 'Second answer.' }], [], { XDG_DATA_HOME: join(home, 'not-a-dir') });
    await pane.waitFor('/help for commands');
    await say('hello');
    const screen = await pane.waitFor('First answer.');
    expect(screen).toMatch(/⚠ warning: the session file could not be created \(ENOTDIR/);
    expect(screen).not.toContain('Unexpected error');
    await say('again');
    const after = await pane.waitFor('Second answer.');
    expect(after.match(/could not be created/g)).toHaveLength(1);
    await pane.send(['C-d']);
    expect(await pane.waitForExit()).toBe(0);
  });

  it('a warning while the screen is up (/resume of a torn session file) is shown in the session, not on stderr', async () => {
    const home = makeHome();
    const first = await open(home, [{ text: 'Recorded.' }], []);
    await first.pane.waitFor('/help for commands');
    await first.say('record me');
    await first.pane.waitFor('Recorded.');
    await first.say('/exit');
    expect(await first.pane.waitForExit()).toBe(0);
    await first.pane.kill();
    const sessions = join(home, 'data', 'vibe-agent', 'sessions');
    const [dir] = readdirSync(sessions);
    const [file] = readdirSync(join(sessions, dir!)).filter((name) => name.endsWith('.jsonl'));
    appendFileSync(join(sessions, dir!, file!), '{"type":"run_start","inp'); // a write cut off by a crash

    const second = await open(home, [], []);
    await second.pane.waitFor('/help for commands');
    await second.say(`/resume ${file!.replace('.jsonl', '')}`);
    const screen = await second.pane.waitFor('Resumed session');
    expect(screen).toMatch(/⚠ warning:[\s\S]*ignored an unfinished last line/);
    expect(screen).not.toContain('vibe-agent: warning:');
    await second.pane.send(['C-d']);
    expect(await second.pane.waitForExit()).toBe(0);
  });
});
