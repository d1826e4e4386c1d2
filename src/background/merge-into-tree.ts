import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blobAt, gitOrThrow } from './git.js';

/** One file's part of a land: what to write (or remove) in the working tree, or why it cannot. */
export type FileStep = { path: string; action: 'write'; content: Buffer; merged: boolean } | { path: string; action: 'remove' } | { path: string; action: 'conflict'; why: string };

/** A file the land would change: its bytes at the base and at the session's tip (undefined: absent there). */
export interface FileChange {
  path: string;
  base: Buffer | undefined;
  theirs: Buffer | undefined;
}

/** The files `from..to` (commits in the repository) changes. */
export function changedFiles(repo: string, from: string, to: string): FileChange[] {
  const listed = gitOrThrow(repo, ['diff', '--no-renames', '--name-status', '-z', from, to]).split('\0').filter(Boolean);
  const changes: FileChange[] = [];
  for (let i = 0; i + 1 < listed.length; i += 2) {
    const path = listed[i + 1]!;
    changes.push({ path, base: blobAt(repo, from, path), theirs: blobAt(repo, to, path) });
  }
  return changes;
}

/**
 * Plans applying the changes to the working tree of `repo` as it is now, uncommitted edits included: a
 * file the user did not touch takes the change; one the user edited is merged three ways (git
 * merge-file: base, ours the working file, theirs); anything that does not merge cleanly is a conflict.
 * Nothing is written here.
 */
export function planFiles(repo: string, changes: FileChange[]): FileStep[] {
  return changes.map(({ path, base, theirs }) => {
    const file = join(repo, path);
    const ours = existsSync(file) ? readFileSync(file) : undefined;
    return stepFor(path, base, ours, theirs);
  });
}

function stepFor(path: string, base: Buffer | undefined, ours: Buffer | undefined, theirs: Buffer | undefined): FileStep {
  const same = (a: Buffer | undefined, b: Buffer | undefined) => (a === undefined ? b === undefined : b !== undefined && a.equals(b));
  if (same(ours, theirs)) return theirs === undefined ? { path, action: 'remove' } : { path, action: 'write', content: theirs, merged: false };
  if (same(ours, base)) return theirs === undefined ? { path, action: 'remove' } : { path, action: 'write', content: theirs, merged: false };
  if (ours === undefined) return { path, action: 'conflict', why: 'you deleted it and the session changed it' };
  if (theirs === undefined) return { path, action: 'conflict', why: 'you changed it and the session deleted it' };
  if (base === undefined) return { path, action: 'conflict', why: 'you and the session both created it, differently' };
  const merged = mergeFile(ours, base, theirs);
  return merged.clean ? { path, action: 'write', content: merged.content, merged: true } : { path, action: 'conflict', why: `your uncommitted edits and the session's change overlap (${merged.conflicts} conflicting part${merged.conflicts === 1 ? '' : 's'})` };
}

function mergeFile(ours: Buffer, base: Buffer, theirs: Buffer): { clean: boolean; content: Buffer; conflicts: number } {
  const dir = mkdtempSync(join(tmpdir(), 'vibe-land-'));
  try {
    const [o, b, t] = ['ours', 'base', 'theirs'].map((name) => join(dir, name)) as [string, string, string];
    writeFileSync(o, ours);
    writeFileSync(b, base);
    writeFileSync(t, theirs);
    const result = spawnSync('git', ['merge-file', '-p', o, b, t], { maxBuffer: 256 * 1024 * 1024 });
    if (result.status === null || result.status > 127) throw new Error(`git merge-file failed: ${result.stderr?.toString() ?? result.error}`);
    return { clean: result.status === 0, content: result.stdout, conflicts: result.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
