import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { SuiteError } from './task.js';

/** A suite bigger than this is not held in memory: checks and fixtures, not data sets. */
export const MAX_SUITE_BYTES = 64 * 1024 * 1024;

interface SnapshotFile {
  bytes: Buffer;
  mode: number;
  digest: string;
}

/**
 * A suite's files as they were before any run started, held in memory. With the sandbox off a
 * model's shell can find the suite's folder (in /proc, say) and rewrite a check to exit 0; checks
 * run from a private copy written from this snapshot after the run has ended, and a changed suite
 * fails the run that saw it.
 */
export interface SuiteSnapshot {
  root: string;
  /** Path relative to the root, with `/` separators → content. */
  files: ReadonlyMap<string, SnapshotFile>;
}

export function snapshotSuite(root: string): SuiteSnapshot {
  const files = new Map<string, SnapshotFile>();
  let total = 0;
  for (const path of listFiles(root)) {
    const bytes = readFileSync(path);
    total += bytes.length;
    if (total > MAX_SUITE_BYTES) throw new SuiteError(`${root}: the suite is over ${MAX_SUITE_BYTES / 1024 / 1024} MB; eval holds a copy of it for the checks.`);
    files.set(relative(root, path).split(sep).join('/'), { bytes, mode: statSync(path).mode & 0o777, digest: digest(bytes) });
  }
  return { root, files };
}

/** The suite's files that differ from the snapshot now (changed, removed or added), sorted. */
export function changedFiles(snapshot: SuiteSnapshot): string[] {
  const now = new Map<string, string>();
  for (const path of listFiles(snapshot.root)) now.set(relative(snapshot.root, path).split(sep).join('/'), digest(readFileSync(path)));
  const changed = new Set<string>();
  for (const [name, file] of snapshot.files) if (now.get(name) !== file.digest) changed.add(name);
  for (const name of now.keys()) if (!snapshot.files.has(name)) changed.add(name);
  return [...changed].sort();
}

/** Puts the snapshot's content back for `names` (added files are left: they may be someone's). */
export function restoreFiles(snapshot: SuiteSnapshot, names: string[]): void {
  for (const name of names) {
    const file = snapshot.files.get(name);
    if (file) writeFile(join(snapshot.root, name), file);
  }
}

/** A fresh private directory (0700, a random name) holding the snapshot: where a check runs from. */
export function writePrivateCopy(snapshot: SuiteSnapshot): string {
  const dir = mkdtempSync(join(tmpdir(), 'vibe-eval-check-'));
  chmodSync(dir, 0o700);
  for (const [name, file] of snapshot.files) writeFile(join(dir, name), file);
  return dir;
}

function writeFile(path: string, file: SnapshotFile): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, file.bytes);
  chmodSync(path, file.mode);
}

/** Regular files under `root`, following links to files but not to directories (no cycles); none when it is gone. */
function listFiles(root: string): string[] {
  const found: string[] = [];
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) return found;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() || (entry.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isFile())) found.push(path);
    }
  };
  walk(root);
  return found.sort();
}

function digest(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
