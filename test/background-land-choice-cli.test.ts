import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backgroundHome, gitIn, repository, startBackground } from './support/background-cli.js';
import { startChatServer, type ChatRequestBody } from './support/chat-server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function reply(body: ChatRequestBody) {
  const answered = body.messages.some((message) => message.role === 'tool');
  if (answered) return { text: 'two files written.' };
  return {
    toolCalls: [
      { id: 'f1', name: 'write_file', arguments: { path: 'notes.txt', content: 'notes\n' } },
      { id: 'f2', name: 'write_file', arguments: { path: 'other.txt', content: 'other\n' } },
    ],
  };
}

describe('land: chosen files, and --pr (the built CLI, no network, no gh)', () => {
  it('lands only the files named, refuses to guess without a terminal, and pushes the branch to a local bare remote with --pr', { timeout: 300_000 }, async () => {
    const model = await startChatServer([reply, reply]);
    const home = backgroundHome(model.url);
    cleanups.push(() => model.close(), () => home.cleanup());
    const repo = repository(home);
    const { row } = await startBackground(home, ['-w', 'two', '--permission-mode', 'auto-edit', 'write two files'], 'stop', cleanups);

    const unasked = await home.run(['land', 'two']);
    expect(unasked.code).not.toBe(0);
    expect(unasked.stderr).toContain('without a terminal to choose hunks on, land everything with --yes or name files with --only PATH. Nothing was applied.');
    expect(existsSync(join(repo, 'notes.txt'))).toBe(false);

    // The checkout's config names a check: not run unapproved (no terminal to ask on), run under
    // --trust-project-mcp (and failing, it lands nothing), skipped with --no-check.
    const projectConfig = join(repo, '.vibe-agent', 'config.json');
    mkdirSync(join(repo, '.vibe-agent'));
    writeFileSync(projectConfig, JSON.stringify({ landChecks: ['exit 7'] }));
    const untrusted = await home.run(['land', 'two', '--only', 'notes.txt']);
    expect(untrusted.code).not.toBe(0);
    expect(untrusted.stderr).toContain(`${projectConfig} names land checks (exit 7), and they run only once you approve them for this workspace`);
    const failing = await home.run(['land', 'two', '--only', 'notes.txt', '--trust-project-mcp']);
    expect(failing.code).not.toBe(0);
    expect(failing.stdout).toContain(`Running 1 check from ${projectConfig} (the project's; trustProjectMcp runs it unasked).`);
    expect(failing.stderr).toContain('the check "exit 7" failed (exit 7). Nothing was applied.');
    expect(existsSync(join(repo, 'notes.txt'))).toBe(false);

    const only = await home.run(['land', 'two', '--only', 'notes.txt', '--no-check']);
    expect(only.code, only.stderr).toBe(0);
    expect(only.stdout).toContain('No checks run: --no-check.');
    rmSync(join(repo, '.vibe-agent'), { recursive: true });
    expect(only.stdout).toContain('wrote notes.txt.');
    expect(only.stdout).toContain('Part of the change was left out; it stays on vibe/two.');
    expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('notes\n');
    expect(existsSync(join(repo, 'other.txt'))).toBe(false);
    // What was left out is still the worktree's own work: a prune keeps it.
    const pruned = await home.run(['agents', '--prune']);
    expect(pruned.stdout).toContain(`kept ${row.worktree}: it holds 1 commit on no other branch`);

    const noRemote = await home.run(['land', 'two', '--pr']);
    expect(noRemote.code).not.toBe(0);
    expect(noRemote.stderr).toContain(`${repo} has no git remote to push vibe/two to`);

    const bare = join(home.root, 'remote.git');
    mkdirSync(bare);
    gitIn(bare, 'init', '-q', '--bare');
    gitIn(repo, 'remote', 'add', 'origin', bare);
    const pr = await home.run(['land', 'two', '--pr'], { PATH: dirnameOf('git') });
    expect(pr.code, pr.stderr).toBe(0);
    expect(pr.stdout).toContain('Pushed vibe/two to origin.');
    expect(pr.stdout).toContain(`gh (the GitHub CLI) is not installed, so no pull request was opened: open one for vibe/two on ${bare}.`);
    expect(gitIn(bare, 'rev-parse', 'refs/heads/vibe/two').trim()).toBe(gitIn(row.worktree!, 'rev-parse', 'HEAD').trim());
    expect(gitIn(bare, 'show', 'vibe/two:other.txt')).toBe('other\n');
  });
});

/** A PATH holding git (and sh) but no gh: the folder git is in, on this machine. */
function dirnameOf(tool: string): string {
  const found = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
  return `${join(found, '..')}:/bin`;
}
