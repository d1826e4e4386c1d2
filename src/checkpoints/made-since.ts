import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Checkpoint, CheckpointLog } from './checkpoint-log.js';
import { ShadowGit } from './shadow-git.js';
import { presentIn, readBlobs } from './tree-objects.js';

export type NotMadeReason = 'over the size limit' | 'ignored when captured' | 'not made by the agent';

/**
 * Of files absent from a checkpoint's tree, the ones a rewind to it may not delete, with why. A
 * file is the agent's to delete only if it provably did not exist then (not left out for its size,
 * not ignored by the ignore rules as they were in that tree) and a later capture of the session
 * holds it: a turn's checkpoint, what a run left, or a file a rewind wrote.
 */
export async function notMadeSince(git: ShadowGit, log: CheckpointLog, checkpoint: Checkpoint, paths: readonly string[]): Promise<Map<string, NotMadeReason>> {
  const reasons = new Map<string, NotMadeReason>();
  const tooLarge = new Set(checkpoint.tooLarge);
  for (const path of paths) {
    if (tooLarge.has(path)) reasons.set(path, 'over the size limit');
    // git's line-based lookups cannot name it: nothing can be proven about it.
    else if (/[\n\r]/.test(path)) reasons.set(path, 'not made by the agent');
  }
  const open = paths.filter((path) => !reasons.has(path));
  const [ignored, captured] = await Promise.all([ignoredIn(git, checkpoint.tree, open), capturedLater(git, log, checkpoint, open)]);
  for (const path of open) {
    if (ignored.has(path)) reasons.set(path, 'ignored when captured');
    else if (!captured.has(path)) reasons.set(path, 'not made by the agent');
  }
  return reasons;
}

/** Which paths the ignore files held in `tree` (with the store's and the user's global excludes) ignore. */
async function ignoredIn(git: ShadowGit, tree: string, paths: readonly string[]): Promise<Set<string>> {
  if (!paths.length) return new Set();
  const ignoreFiles = [...new Set(paths.flatMap(ancestors).map((dir) => (dir ? `${dir}/.gitignore` : '.gitignore')))];
  const blobs = await readBlobs(git, ignoreFiles.map((path) => `${tree}:${path}`));
  const held = ignoreFiles.filter((path) => blobs.has(`${tree}:${path}`));
  // The rules as they were: those ignore files alone, in an empty folder git takes as the work tree.
  const scratch = mkdtempSync(join(tmpdir(), 'vibe-ignore-'));
  try {
    for (const path of held) {
      mkdirSync(join(scratch, dirname(path)), { recursive: true });
      writeFileSync(join(scratch, path), blobs.get(`${tree}:${path}`)!);
    }
    const asThen = new ShadowGit(git.gitDir, scratch);
    const result = await asThen.run(['check-ignore', '--no-index', '-z', '--stdin'], `${paths.join('\0')}\0`);
    if (result.code > 1) throw new Error(`git check-ignore failed in the checkpoint store: ${result.stderr.trim()}`);
    return new Set(result.stdout.split('\0').filter(Boolean));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The folders a path lies in, from the workspace's root ('') down. */
function ancestors(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return ['', ...parts.map((_, i) => parts.slice(0, i + 1).join('/'))];
}

async function capturedLater(git: ShadowGit, log: CheckpointLog, checkpoint: Checkpoint, paths: readonly string[]): Promise<Set<string>> {
  if (!paths.length) return new Set();
  const { checkpoints, lefts } = log.read();
  const later = lefts.filter((left) => left.after >= checkpoint.n);
  // A file tool's write recorded since (a pre-image of this checkpoint or a later one) made it too.
  const wrote = checkpoints.filter((c) => c.n >= checkpoint.n).flatMap((c) => Object.keys(c.preImages ?? {}));
  const made = new Set([...later.flatMap((left) => left.made ?? []), ...wrote]);
  // Newest first: the last capture holds most of what the session made, so one lookup each settles most.
  const trees = [...new Set([...checkpoints.filter((c) => c.kind === 'turn' && c.n > checkpoint.n && c.tree).map((c) => c.tree), ...later.filter((left) => !left.made).map((left) => left.tree)].reverse())];
  const captured = new Set(paths.filter((path) => made.has(path)));
  for (const round of [trees.slice(0, 1), trees.slice(1)]) {
    const lookups = paths.filter((path) => !captured.has(path)).flatMap((path) => round.map((tree) => ({ tree, path })));
    if (!lookups.length) continue;
    const found = await presentIn(git, lookups);
    lookups.forEach((lookup, i) => found[i] && captured.add(lookup.path));
  }
  return captured;
}
