import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addBackgroundEntry, readBackgroundEntries, type BackgroundEntry } from '../src/background/background-registry.js';
import type { HunkQuestion } from '../src/background/land-choice.js';
import { landSession } from '../src/background/land-session.js';
import type { LandNote, LandRequest } from '../src/background/land-types.js';
import type { TrustQuestion } from '../src/trust/trust-question.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });
const lines = (changed: Record<number, string> = {}) => Array.from({ length: 9 }, (_, index) => `${changed[index + 1] ?? `line ${index + 1}`}\n`).join('');

/** A repository, and a worktree on vibe/lib whose uncommitted work changes a.txt's first and last lines and creates new.txt. */
function setUp(): { env: NodeJS.ProcessEnv; repo: string; entry: BackgroundEntry; request: (extra: Partial<LandRequest>) => LandRequest; notes: LandNote[] } {
  const root = mkdtempSync(join(tmpdir(), 'vibe-land-session-'));
  roots.push(root);
  const env = { HOME: join(root, 'home'), XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config'), PATH: process.env.PATH ?? '' };
  const repo = join(root, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.email', 'user@example.com');
  git(repo, 'config', 'user.name', 'User');
  writeFileSync(join(repo, 'a.txt'), lines());
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'start');
  const worktree = join(root, 'worktree');
  git(repo, 'worktree', 'add', '-q', '-b', 'vibe/lib', worktree);
  writeFileSync(join(worktree, 'a.txt'), lines({ 1: 'ONE', 9: 'NINE' }));
  writeFileSync(join(worktree, 'new.txt'), 'new\n');
  const entry: BackgroundEntry = { id: '20261207-000000-0001', name: 'lib', repo, workspace: worktree, worktree, branch: 'vibe/lib', base: git(repo, 'rev-parse', 'HEAD').trim(), createdAt: new Date().toISOString() };
  addBackgroundEntry(env, entry);
  const notes: LandNote[] = [];
  const request = (extra: Partial<LandRequest>): LandRequest => ({ entry, state: 'done', checks: { none: true, configured: async () => ({ user: [], userFile: 'none', trustProject: false, notes: [] }) }, env, onNote: (note) => notes.push(note), ...extra });
  return { env, repo, entry, request, notes };
}

describe('landSession (the library call behind `land` and POST …/land)', () => {
  it('refuses a working session before anything is committed, and a failing check after, with its output; nothing applied', async () => {
    const { repo, entry, request, notes } = setUp();
    expect(await landSession(request({ state: 'working' }))).toEqual({ outcome: 'refused', reason: 'lib is working; land it once it is done (or stop it: vibe-agent stop lib)' });
    expect(git(entry.worktree!, 'status', '--porcelain')).not.toBe('');
    expect(notes).toEqual([]);

    // The project's own check, approved through askTrust: it runs, and its failure lands nothing.
    mkdirSync(join(repo, '.vibe-agent'));
    const file = join(repo, '.vibe-agent', 'config.json');
    const asked: TrustQuestion[] = [];
    const check = 'echo out; echo err >&2; exit 4';
    const configured = async () => ({ user: [], userFile: 'none', project: { file, commands: [check] }, trustProject: false, notes: [] });
    // Nobody to ask and never approved: refused, with the list for the front end to word how to approve it.
    expect(await landSession(request({ checks: { configured } }))).toMatchObject({ outcome: 'refused', unapprovedChecks: { file, commands: [check] } });
    expect(notes).toEqual([]);
    const failed = await landSession(request({ checks: { configured }, askTrust: async (question) => (asked.push(question), true) }));
    expect(asked.map((question) => question.heading)).toEqual([`Run the land checks of ${file} (project)? They run as you, in the session's worktree, with your environment:`]);
    expect(failed).toMatchObject({ outcome: 'check_failed', check, exitCode: 4, signal: null, reason: `the check "${check}" failed (exit 4). Nothing was applied.` });
    expect((failed as { output: string }).output.split('\n').sort()).toEqual(['', 'err', 'out']);
    expect(notes.map((note) => note.type).filter((type) => type !== 'check_output')).toEqual(['committed', 'rebased', 'checks', 'check_start']);
    expect(notes.filter((note) => note.type === 'check_output').map((note) => (note as { stream: string }).stream).sort()).toEqual(['stderr', 'stdout']);
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe(lines());
    expect(existsSync(join(repo, 'new.txt'))).toBe(false);

    // Approved once, for this workspace and this list: not asked again.
    expect(await landSession(request({ checks: { configured } }))).toMatchObject({ outcome: 'check_failed', exitCode: 4 });
    expect(asked).toHaveLength(1);
  });

  it('lands the hunks askHunk chooses (partial: not marked landed), then the whole change (marked landed)', async () => {
    const { env, repo, entry, request, notes } = setUp();
    const questions: HunkQuestion[] = [];
    const partial = await landSession(request({ askHunk: async (question) => (questions.push(question), 'whole' in question || question.index === 0) }));
    expect(questions).toEqual([
      { path: 'a.txt', hunk: { line: 1, removed: 'line 1\n', added: 'ONE\n' }, index: 0, count: 2 },
      { path: 'a.txt', hunk: { line: 9, removed: 'line 9\n', added: 'NINE\n' }, index: 1, count: 2 },
      { path: 'new.txt', whole: 'created' },
    ]);
    expect(partial).toMatchObject({ outcome: 'landed', partial: true, branch: 'vibe/lib', files: [{ path: 'a.txt', action: 'wrote', merged: false }, { path: 'new.txt', action: 'wrote', merged: false }] });
    expect((partial as { text: string }).text).toContain('Part of the change was left out; it stays on vibe/lib.');
    expect(notes.map((note) => ('text' in note ? note.text : note.type))).toEqual(["Committed lib's uncommitted work on vibe/lib.", expect.stringMatching(/^Rebased vibe\/lib onto [0-9a-f]{12}\.$/), 'No checks run: --no-check.']);
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe(lines({ 1: 'ONE' }));
    expect(readBackgroundEntries(env)[0]!.landed).toBeUndefined();

    // The checkout now holds ONE and new.txt (uncommitted): the whole change merges the rest in.
    const whole = await landSession(request({ whole: true }));
    const tip = git(entry.worktree!, 'rev-parse', 'HEAD').trim();
    expect(whole).toMatchObject({ outcome: 'landed', partial: false, tip, files: [{ path: 'a.txt', action: 'wrote', merged: true }, { path: 'new.txt', action: 'wrote', merged: false }] });
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe(lines({ 1: 'ONE', 9: 'NINE' }));
    expect(readBackgroundEntries(env)[0]!.landed).toBe(tip);
  });

  it('without askHunk, whole or only it refuses rather than guess', async () => {
    const { repo, request } = setUp();
    expect(await landSession(request({}))).toEqual({ outcome: 'refused', reason: 'without a terminal to choose hunks on, land everything with --yes or name files with --only PATH. Nothing was applied.' });
    expect(await landSession(request({ only: ['new.txt'] }))).toMatchObject({ outcome: 'landed', partial: true, files: [{ path: 'new.txt', action: 'wrote', merged: false }] });
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe(lines());
  });

  it('one land of a worktree at a time across processes: refused while another live process holds the lock, taken over once that process is dead', async () => {
    const { repo, entry, request } = setUp();
    // The lock as another process leaves it: its id, in the worktree's own git folder (where git keeps its locks).
    const given = git(entry.worktree!, 'rev-parse', '--git-dir').trim();
    const gitDir = isAbsolute(given) ? given : join(entry.worktree!, given);
    const lock = join(gitDir, 'vibe-agent-land.lock');
    const other = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] });
    const exited = new Promise((done) => other.on('exit', done));
    try {
      writeFileSync(lock, String(other.pid));
      expect(await landSession(request({ whole: true }))).toEqual({ outcome: 'refused', reason: `another land of lib is under way (process ${other.pid}); land it once that one has ended. Nothing was applied.` });
      expect(git(entry.worktree!, 'status', '--porcelain')).not.toBe('');
      expect(existsSync(join(repo, 'new.txt'))).toBe(false);
      expect(readFileSync(lock, 'utf8')).toBe(String(other.pid));
    } finally {
      other.kill('SIGKILL');
    }
    await exited;
    // Killed mid-land, its lock is stale: the next land takes it over, lands, and leaves no lock behind.
    expect(await landSession(request({ whole: true }))).toMatchObject({ outcome: 'landed', files: [{ path: 'a.txt', action: 'wrote' }, { path: 'new.txt', action: 'wrote' }] });
    expect(readFileSync(join(repo, 'new.txt'), 'utf8')).toBe('new\n');
    expect(readdirSync(gitDir).filter((name) => name.startsWith('vibe-agent-land'))).toEqual([]);
  });
});
