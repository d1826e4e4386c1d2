import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { landUnderWay, takeLandLock } from '../src/background/land-lock.js';

/** The built module, as the CLI and the server load it (run `npm run build` after changing src). */
const BUILT = pathToFileURL(join(import.meta.dirname, '..', 'dist', 'background', 'land-lock.js')).href;

/**
 * One land: loads the module, says `ready`, takes the lock on the first line of stdin, and reports.
 * A winner keeps the lock (and lives) until the test kills it; a loser ends.
 */
const RACER = `
const [url, worktree] = process.argv.slice(1);
const { takeLandLock } = await import(url);
process.stdout.write('ready\\n');
process.stdin.once('data', () => {
  const lock = takeLandLock(worktree);
  process.stdout.write(JSON.stringify('release' in lock ? { won: true } : { heldBy: lock.heldBy ?? null }) + '\\n');
  if ('release' in lock) setInterval(() => {}, 1 << 30);
  else process.exit(0);
});
`;

const roots: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

/** A repository and a linked worktree of it (its `.git` a file naming its git folder, where the lock goes). */
function worktree(): { worktree: string; gitDir: string; lock: string } {
  const root = mkdtempSync(join(tmpdir(), 'vibe-land-lock-'));
  roots.push(root);
  const repo = join(root, 'repo');
  git(root, 'init', '-q', '-b', 'main', repo);
  git(repo, '-c', 'user.email=u@example.com', '-c', 'user.name=U', 'commit', '-q', '--allow-empty', '-m', 'start');
  const tree = join(root, 'tree');
  git(repo, 'worktree', 'add', '-q', '-b', 'vibe/x', tree);
  const given = git(tree, 'rev-parse', '--git-dir').trim();
  const gitDir = isAbsolute(given) ? given : join(tree, given);
  return { worktree: tree, gitDir, lock: join(gitDir, 'vibe-agent-land.lock') };
}

interface Racer {
  child: ChildProcessWithoutNullStreams;
  lines: AsyncIterator<string>;
}

async function startRacer(tree: string): Promise<Racer> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', RACER, BUILT, tree], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.value !== 'ready') throw new Error(`a racer did not start: ${stderr}`);
  return { child, lines };
}

/** `count` processes take the lock at once (each loaded and waiting first); what each got. */
async function race(tree: string, count: number): Promise<Array<{ racer: Racer; got: { won?: true; heldBy?: number | null } }>> {
  const racers = await Promise.all(Array.from({ length: count }, () => startRacer(tree)));
  for (const racer of racers) racer.child.stdin.write('go\n');
  return Promise.all(racers.map(async (racer) => ({ racer, got: JSON.parse((await racer.lines.next()).value as string) })));
}

const killed = (child: ChildProcessWithoutNullStreams) =>
  new Promise<void>((done) => {
    child.once('exit', () => done());
    child.kill('SIGKILL');
  });

const leftovers = (gitDir: string) => readdirSync(gitDir).filter((name) => name.startsWith('vibe-agent-land'));

describe('the land lock across processes', () => {
  it('eight processes finding the same dead holder at once: exactly one takes the lock over, the others name it, round after round', async () => {
    const { worktree: tree, gitDir, lock } = worktree();
    // A land killed while holding the lock: the first round's stale lock.
    let [holder] = await race(tree, 1);
    expect(holder!.got).toEqual({ won: true });
    const ROUNDS = 6;
    for (let round = 0; round < ROUNDS; round++) {
      const dead = holder!.racer.child.pid!;
      await killed(holder!.racer.child);
      expect(readFileSync(lock, 'utf8')).toBe(String(dead));
      const results = await race(tree, 8);
      const winners = results.filter(({ got }) => got.won);
      expect(winners.length, `round ${round}: ${JSON.stringify(results.map(({ got }) => got))}`).toBe(1);
      holder = winners[0]!;
      const winner = holder.racer.child.pid!;
      for (const { got } of results.filter(({ got }) => !got.won)) expect(got).toEqual({ heldBy: winner });
      expect(readFileSync(lock, 'utf8')).toBe(String(winner));
      expect(landUnderWay(tree)).toBe(winner);
      // No claim or draft left: only the lock itself.
      expect(leftovers(gitDir)).toEqual(['vibe-agent-land.lock']);
    }
  }, 180_000);

  it('a live holder is named and its lock left alone; released, the lock is gone and the next land takes it at once', async () => {
    const { worktree: tree, gitDir, lock } = worktree();
    const [holder] = await race(tree, 1);
    const pid = holder!.racer.child.pid!;
    expect(takeLandLock(tree)).toEqual({ heldBy: pid });
    expect(readFileSync(lock, 'utf8')).toBe(String(pid));
    expect(leftovers(gitDir)).toEqual(['vibe-agent-land.lock']);
    await killed(holder!.racer.child);

    const mine = takeLandLock(tree);
    expect('release' in mine).toBe(true);
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
    if ('release' in mine) mine.release();
    expect(leftovers(gitDir)).toEqual([]);
    expect(landUnderWay(tree)).toBeUndefined();
  }, 60_000);

  it('a lock file that names no process (empty, garbage) is stale and taken over, never reported as process 0', () => {
    const { worktree: tree, gitDir, lock } = worktree();
    for (const text of ['', '0', 'not a pid']) {
      writeFileSync(lock, text);
      const taken = takeLandLock(tree);
      expect('release' in taken).toBe(true);
      if ('release' in taken) taken.release();
      expect(leftovers(gitDir)).toEqual([]);
    }
  });
});
