import { spawn } from 'node:child_process';
import { lstat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { checkGitExclude, IGNORE_FILE_NAMES, loadAncestors, MAX_IGNORE_FILE_BYTES } from './ignore-rules.js';
import { stillSame, takeIdentity, type WalkIdentity } from './walk-identity.js';

const IGNORE_NAMES = new Set<string>(Object.values(IGNORE_FILE_NAMES));

/** A tree found clean: its identity, and the folders holding a `.git` (their `info/exclude` is read again each time). */
interface CleanTree {
  identity: WalkIdentity;
  repositories: string[];
}

/** Clean trees by root, newest last; a few, since a session searches few roots. */
const cleanTrees = new Map<string, CleanTree>();
const REMEMBERED_ROOTS = 8;
/** Above this many folders a tree is checked in full each time rather than remembered. */
const MAX_REMEMBERED_ENTRIES = 200_000;

/** How many full checks (`find` over the tree) this process ran; for tests. */
export let fullChecks = 0;

/**
 * Whether ripgrep may walk `root`: ripgrep 13 blocks for good on an ignore file that is a FIFO and
 * reads one linked to /dev/zero until memory runs out, so every ignore file it could open must be
 * a regular file of a sane size. One `find` process looks (it reads directory entries' types;
 * only the few files with an ignore file's name are then stat-ed); the ancestors' ignore files
 * and each repository's `info/exclude` are read as the JavaScript walker reads them.
 * Conservative: an ignore file that is a link, or one inside an ignored folder, also says no;
 * then the JavaScript walker runs and reports what it refused. Runs beside ripgrep, which is
 * stopped when this says no. A clean tree is remembered with its folders' identities
 * (walk-identity.ts): while none changed, the next check stats those folders instead of walking.
 */
export async function ripgrepMayWalk(root: string, signal: AbortSignal, now: () => number = Date.now): Promise<boolean> {
  let refused = false;
  loadAncestors(root, () => (refused = true));
  if (refused) return false;
  const known = cleanTrees.get(root);
  if (known && (await stillSame(root, known.identity, signal))) return repositoriesSafe(root, known.repositories);
  cleanTrees.delete(root);
  fullChecks++;
  const started = now();
  const names = [...IGNORE_NAMES].flatMap((name, i) => [...(i ? ['-o'] : []), '-name', name]);
  const args = [
    '.',
    ...['(', '-name', 'node_modules', '-prune', ')', '-o'],
    ...['(', '-name', '.git', '-print0', '-prune', ')', '-o'],
    ...['(', '(', ...names, ')', '-print0', ')', '-o'],
    ...['(', '-type', 'd', '-print0', ')'],
  ];
  const found = await runFind(root, args, signal);
  if (found === undefined) return false;
  const folders: string[] = [];
  const ignoreFiles: string[] = [];
  const repositories: string[] = [];
  for (const entry of found) {
    const name = basename(entry);
    if (name === '.git') repositories.push(dirname(entry));
    else if (IGNORE_NAMES.has(name)) ignoreFiles.push(entry);
    else folders.push(entry);
  }
  for (const file of ignoreFiles) {
    const info = await lstat(join(root, file)).catch(() => undefined);
    if (!info?.isFile() || info.size > MAX_IGNORE_FILE_BYTES) return false;
  }
  if (!repositoriesSafe(root, repositories)) return false;
  const watched = [...folders, ...ignoreFiles];
  if (watched.length <= MAX_REMEMBERED_ENTRIES) {
    const identity = await takeIdentity(root, watched, started, signal);
    if (identity) remember(root, { identity, repositories });
  }
  return true;
}

function repositoriesSafe(root: string, repositories: readonly string[]): boolean {
  let refused = false;
  for (const dir of repositories) {
    checkGitExclude(join(root, dir), () => (refused = true));
    if (refused) return false;
  }
  return true;
}

function remember(root: string, tree: CleanTree): void {
  cleanTrees.delete(root);
  cleanTrees.set(root, tree);
  if (cleanTrees.size > REMEMBERED_ROOTS) cleanTrees.delete(cleanTrees.keys().next().value!);
}

/** The NUL-separated paths `find` printed, or undefined when it could not run. An unreadable folder (exit 1) is one ripgrep cannot read either. */
function runFind(cwd: string, args: string[], signal: AbortSignal): Promise<string[] | undefined> {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const child = spawn('find', args, { cwd, stdio: ['ignore', 'pipe', 'ignore'], signal });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error) => (signal.aborted ? reject(signal.reason) : resolve(undefined)));
    child.on('close', (code) => {
      if (signal.aborted) return reject(signal.reason);
      if (code !== 0 && code !== 1) return resolve(undefined);
      resolve(Buffer.concat(chunks).toString('utf8').split('\0').filter((entry) => entry !== ''));
    });
  });
}
