import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backgroundHome, gitIn, repository, startBackground } from './support/background-cli.js';
import { startChatServer, type ChatRequestBody } from './support/chat-server.js';
import { CLI } from './support/cli-process.js';
import { requireTmux, startInTmux } from './support/tmux.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const numbered = (...changed: Record<number, string>[]) =>
  Array.from({ length: 9 }, (_, index) => `${Object.assign({}, ...changed)[index + 1] ?? `line ${index + 1}`}\n`).join('');
const ORIGINAL = numbered();
/** The session changes the first and the last line: two hunks. */
const SESSION_WRITES = numbered({ 1: 'LINE 1 (the session)', 9: 'LINE 9 (the session)' });
/** The user's uncommitted edit in the checkout, between the two. */
const USER_EDIT = numbered({ 5: 'line 5 (the user, uncommitted)' });

function reply(body: ChatRequestBody) {
  const results = body.messages.filter((message) => message.role === 'tool').length;
  if (results === 0) return { toolCalls: [{ id: 'r1', name: 'read_file', arguments: { path: 'shared.txt' } }] };
  return results === 1 ? { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'shared.txt', content: SESSION_WRITES } }] } : { text: 'edited shared.txt.' };
}

describe('land on a terminal (the built CLI in tmux, a scripted model, real git)', () => {
  it("asks to trust the project's checks, then hunk by hunk: Ctrl-C applies nothing; y and n land exactly the chosen hunk beside the user's edit", { timeout: 300_000 }, async () => {
    requireTmux();
    const model = await startChatServer([reply, reply, reply]);
    const home = backgroundHome(model.url);
    cleanups.push(() => model.close(), () => home.cleanup());
    const repo = repository(home, ORIGINAL);
    const { row } = await startBackground(home, ['-w', 'hunks', '--permission-mode', 'auto-edit', 'edit shared.txt'], 'stop', cleanups);
    expect(readFileSync(join(row.worktree!, 'shared.txt'), 'utf8')).toBe(SESSION_WRITES);

    writeFileSync(join(repo, 'shared.txt'), USER_EDIT);
    // The checkout's own config names a check: it runs only once approved.
    mkdirSync(join(repo, '.vibe-agent'));
    const projectConfig = join(repo, '.vibe-agent', 'config.json');
    writeFileSync(projectConfig, JSON.stringify({ landChecks: ['grep -q "LINE 1 (the session)" shared.txt'] }));

    const land = async () => {
      const pane = await startInTmux([process.execPath, CLI, 'land', 'hunks'], { cwd: repo, width: 200, height: 50, env: { ...home.env, TERM: 'tmux-256color' } });
      cleanups.push(() => pane.kill());
      return pane;
    };

    const first = await land();
    await first.waitFor((screen) => screen.includes(`Run the land checks of ${projectConfig} (project)?`) && screen.includes('Approve?'), 60_000);
    expect(await first.screen()).toContain('check 1: grep -q "LINE 1 (the session)" shared.txt');
    await first.send(['y']);
    const asked = await first.waitFor('Land this hunk (1 of 2 in shared.txt)?', 60_000);
    expect(asked).toContain(`Running 1 check from ${projectConfig} (the project's, approved for this workspace).`);
    expect(asked).toContain('passed (exit 0)');
    expect(asked).toMatch(/shared\.txt at line 1:\n-line 1\n\+LINE 1 \(the session\)/);
    await first.send(['C-c']);
    expect(await first.waitForExit(60_000)).toBe(130);
    expect(await first.screen()).toContain('vibe-agent land: stopped (Ctrl-C) at a hunk question. Nothing was applied; vibe/hunks keeps all of its change.');
    expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe(USER_EDIT);
    expect(home.sessionFiles()).toEqual([]);

    // The approval was remembered: no question this time. y to the first hunk, n to the second.
    const second = await land();
    await second.waitFor('Land this hunk (1 of 2 in shared.txt)?', 60_000);
    expect(await second.screen()).not.toContain('Run the land checks of');
    await second.send(['y']);
    const next = await second.waitFor('Land this hunk (2 of 2 in shared.txt)?', 60_000);
    expect(next).toMatch(/shared\.txt at line 9:\n-line 9\n\+LINE 9 \(the session\)/);
    await second.send(['n']);
    expect(await second.waitForExit(60_000)).toBe(0);
    const landed = await second.screen();
    expect(landed).toContain(`Landed hunks into ${repo}: wrote shared.txt.`);
    expect(landed).toContain('Merged with your uncommitted edits: shared.txt.');
    expect(landed).toContain('Part of the change was left out; it stays on vibe/hunks.');
    expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe(numbered({ 1: 'LINE 1 (the session)', 5: 'line 5 (the user, uncommitted)' }));
    expect(gitIn(repo, 'diff', '--cached', '--name-only')).toBe('');

    // The land's rewind point is not a conversation: --continue finds none here, and rewind undoes the land.
    const continued = await home.run(['--continue', 'go on']);
    expect(continued.code).toBe(2);
    expect(continued.stderr).toContain('No saved session to continue in');
    const rewound = await home.run(['rewind']);
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe(USER_EDIT);
  });
});
