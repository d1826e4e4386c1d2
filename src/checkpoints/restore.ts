import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { Checkpoint, CheckpointLog } from './checkpoint-log.js';
import { diskState, emptiedBy, isEntry, parentProblem, type FolderFacts } from './disk-state.js';
import { notMadeSince } from './made-since.js';
import { nulList, type ShadowGit } from './shadow-git.js';
import type { Snapshot } from './snapshot.js';
import { NESTED_REPO_MODE, treeChanges, type TreeEntry } from './tree-objects.js';

/** Paths whose content differs between two trees (added, deleted or changed). */
export async function changedPaths(git: ShadowGit, from: string, to: string): Promise<string[]> {
  if (from === to) return [];
  return nulList(await git.must(['diff-tree', '-r', '-z', '--name-only', '--no-renames', from, to]));
}

/** One file a rewind changes: `now` is what the snapshot just taken holds (absent: nothing), `then` the checkpoint's (absent: remove it). */
export interface FileOp {
  path: string;
  now?: TreeEntry;
  then?: TreeEntry;
}

export interface LeftAlone {
  path: string;
  reason: string;
}

/** What a rewind will do to the files, worked out and checked before anything is touched. */
export interface RestorePlan {
  /** The checkpoint's tree and the tree of the workspace now. */
  target: string;
  current: string;
  ops: FileOp[];
  leftAlone: LeftAlone[];
}

/**
 * Works out how to take the workspace back to a checkpoint, given a snapshot taken just now. Only
 * what the snapshots captured is touched: a file changed or deleted since comes back; a file made
 * since is removed only if the session provably made it (see notMadeSince). Everything else, and
 * anything whose path is not safe to write now (a symlinked or nested-repository folder, a FIFO,
 * an unreadable file), is left alone and named.
 */
export async function planRestore(git: ShadowGit, log: CheckpointLog, checkpoint: Checkpoint, current: Snapshot): Promise<RestorePlan> {
  const changes = await treeChanges(git, checkpoint.tree, current.tree);
  const leftAlone: LeftAlone[] = [];
  const nestedRepos = changes.filter((change) => change.from?.mode === NESTED_REPO_MODE || change.to?.mode === NESTED_REPO_MODE).map((change) => change.path);
  const inNestedRepo = (path: string) => nestedRepos.some((repo) => path === repo || path.startsWith(`${repo}/`));
  const candidates: FileOp[] = [];
  for (const change of changes) {
    if (inNestedRepo(change.path)) leftAlone.push({ path: change.path, reason: 'nested repository' });
    else candidates.push({ path: change.path, ...(change.to ? { now: change.to } : {}), ...(change.from ? { then: change.from } : {}) });
  }
  const created = candidates.filter((op) => !op.then).map((op) => op.path);
  const notMade = await notMadeSince(git, log, checkpoint, created);
  for (const [path, reason] of notMade) leftAlone.push({ path, reason });
  const checked = await checkOps(git.workTree, candidates.filter((op) => !notMade.has(op.path)), current);
  leftAlone.push(...checked.unsafe);
  const named = new Set(leftAlone.map((entry) => entry.path));
  for (const path of new Set([...checkpoint.tooLarge, ...current.tooLarge])) if (!named.has(path)) leftAlone.push({ path, reason: 'over the size limit' });
  leftAlone.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { target: checkpoint.tree, current: current.tree, ops: checked.safe, leftAlone };
}

/**
 * Splits ops into those safe to carry out on the workspace as it is now and those not (with why):
 * a file to rewrite or remove must be exactly what the snapshot captured; a file to bring back must
 * be absent (or a folder holding only files the rewind removes); the folders above must be real.
 */
export async function checkOps(workTree: string, ops: readonly FileOp[], current: Snapshot): Promise<{ safe: FileOp[]; unsafe: LeftAlone[] }> {
  const realRoot = await realpath(workTree);
  const idLike = current.tree;
  const tooLargeNow = new Set(current.tooLarge);
  const safe: FileOp[] = [];
  const unsafe: LeftAlone[] = [];
  const removed = new Set<string>();
  const facts: FolderFacts = new Map();
  const check = async (op: FileOp): Promise<string | undefined> => {
    const parents = await parentProblem(workTree, realRoot, op.path, removed, facts);
    if (parents) return parents;
    // Below a symlink or file the rewind removes first, nothing is there yet (and nothing is read through it).
    const state = underRemoved(op.path, removed) ? ({ kind: 'absent' } as const) : await diskState(join(workTree, op.path), idLike);
    if (op.now) {
      if (isEntry(state, op.now)) return undefined;
      return state.kind === 'unreadable' ? 'unreadable' : state.kind === 'other' ? 'not a regular file' : 'changed since the snapshot';
    }
    if (state.kind === 'absent') return undefined;
    if (state.kind === 'dir') return (await emptiedBy(workTree, op.path, removed)) ? undefined : 'a folder is in its place';
    if (tooLargeNow.has(op.path)) return 'over the size limit';
    return state.kind === 'other' ? 'not a regular file' : 'not captured now (ignored or unreadable)';
  };
  // Removals first: a file or symlink they take away may stand where a folder is to come back.
  const removals = ops.filter((op) => !op.then);
  for (const op of removals) {
    const problem = await check(op);
    if (problem) unsafe.push({ path: op.path, reason: problem });
    else {
      safe.push(op);
      removed.add(op.path);
    }
  }
  for (const op of ops.filter((op) => op.then)) {
    const problem = await check(op);
    if (problem) unsafe.push({ path: op.path, reason: problem });
    else safe.push(op);
  }
  return { safe, unsafe };
}

function underRemoved(path: string, removed: ReadonlySet<string>): boolean {
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) if (removed.has(path.slice(0, at))) return true;
  return false;
}
