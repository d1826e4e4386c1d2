import { lstat, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSecretPath } from '../workspace/secret-files.js';
import { borrowsObjects, keepBorrowedObjects } from './borrowed-objects.js';
import { addAll } from './bulk-add.js';
import { seedFromUserGit } from './seed-from-user-git.js';
import { nulList, type ShadowGit } from './shadow-git.js';

/** Files larger than this are left out of snapshots (and reported), so a stray video or dump stays cheap. */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

export interface Snapshot {
  /** The git tree of the workspace as it was. */
  tree: string;
  /** Workspace-relative paths left out because of their size. */
  tooLarge: string[];
}

/**
 * Records the workspace as a tree in the shadow repository: every file git would not ignore
 * (the workspace's .gitignore files apply), except files over `maxFileBytes` and files that hold
 * credentials by name (`.env`, keys: isSecretPath; the store must never become a copy of them).
 * The CLI's own folders are excluded in the store (shadow-git.ts). Cheap when little
 * changed: git's index remembers file stats, so only changed files are read, and when nothing
 * changed one git process (ls-files) answers.
 */
export async function takeSnapshot(git: ShadowGit, maxFileBytes = DEFAULT_MAX_FILE_BYTES): Promise<Snapshot> {
  await refuseSpecialIgnoreFiles(git.workTree);
  await git.ensure();
  // A new store in a git repository starts from the user's index: only what differs from it is added.
  if (await seedFromUserGit(git, maxFileBytes)) await writeFile(join(git.gitDir, FORGOT_MARK), '');
  await forgetOnce(git);
  // Modified, deleted and untracked files against the shadow index: the one walk of the workspace.
  // -t tags each path: '? ' untracked, else in the index (changed or deleted).
  const tagged = nulList(await git.must(['ls-files', '-z', '-t', '--others', '--modified', '--exclude-standard']));
  const candidates = [...new Set(tagged.map((entry) => entry.slice(2)))];
  const indexed = new Set(tagged.filter((entry) => !entry.startsWith('? ')).map((entry) => entry.slice(2)));
  const tooLarge: string[] = [];
  let bytes = 0;
  // A few stats at a time: a first snapshot names every file of the tree, and 80,000 pending
  // promises (each with its request and closure) cost more memory and GC than the stats themselves.
  let next = 0;
  const worker = async () => {
    while (next < candidates.length) {
      const path = candidates[next++]!;
      const stat = await lstat(join(git.workTree, path)).catch(() => undefined);
      if (stat?.isFile() && stat.size > maxFileBytes) tooLarge.push(path);
      else if (stat?.isFile()) bytes += stat.size;
    }
  };
  await Promise.all(Array.from({ length: Math.min(STAT_PARALLELISM, candidates.length) }, worker));
  tooLarge.sort();
  const secret = candidates.filter(isSecretPath);
  if (tooLarge.length + secret.length === candidates.length) {
    // Nothing differs from the index but files already left out: the tree written from it last time, if the index is still that one.
    const cached = await readTreeCache(git);
    if (cached && cached.tooLarge.join('\0') === tooLarge.join('\0')) return cached;
  }
  const grown = [...tooLarge, ...secret].filter((path) => indexed.has(path));
  if (grown.length) {
    // A file that grew past the limit must not stay in the index with its old content.
    await git.run(['rm', '-q', '-f', '--cached', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], grown.map(literal).join('\0'));
  }
  const skipped = new Set([...tooLarge, ...secret]);
  const toAdd = candidates.filter((path) => !skipped.has(path));
  if (toAdd.length) {
    // Only the paths ls-files named (deleted ones included, so -A records their removal): git need not walk the tree again.
    // --ignore-errors: a path git cannot take (SKIPPABLE) is left out instead of failing the snapshot.
    // Many paths: git matches each file against every pathspec, so past a few hundred the whole tree is cheaper.
    const wholeTree = ['.', ...[...skipped].map((path) => `:(exclude,literal)${path}`)];
    const many = toAdd.length > MAX_NAMED_PATHS;
    const bulk = many ? { files: toAdd.length, bytes } : undefined;
    let added = await addAll(git, many ? wholeTree : toAdd.map(literal), bulk);
    // A named file gone since ls-files (or now beyond a folder swapped for a symlink) fails the whole add: then the whole tree, where it is skipped.
    if (/did not match any files|beyond a symbolic link/i.test(added.stderr)) added = await addAll(git, wholeTree, bulk);
    if (added.code !== 0 && !SKIPPABLE.test(added.stderr)) {
      throw new Error(`git add failed in the checkpoint store: ${added.stderr.trim()}`);
    }
  }
  const tree = (await git.must(['write-tree'])).trim();
  if (borrowsObjects(git)) await keepBorrowedObjects(git, tree, (await readTreeCache(git, { anyIndex: true }))?.tree);
  await writeTreeCache(git, { tree, tooLarge });
  return { tree, tooLarge };
}

const MAX_NAMED_PATHS = 200;
/** libuv runs 4 file-system threads; a few more requests in flight keep them busy. */
const STAT_PARALLELISM = 16;

/**
 * What git add reports for a path it skips, the rest added: a file vanishing or unreadable
 * mid-snapshot, a FIFO where a file was, a nested repository without a commit, a named path
 * that the workspace's ignore rules now cover.
 */
const SKIPPABLE = /unable to (index|stat)|Permission denied|can only add regular files|does not have a commit checked out|paths are ignored by one of your \.gitignore/i;
const FORGOT_MARK = 'vibe-agent-forgot-secrets';

/**
 * Once per store: drops from the index what a snapshot must not hold but a store written before
 * these rules may: secret files, and anything in the CLI's own folders. Unchanged files are never
 * looked at again, so they would stay in every later tree; from then on none is ever added.
 */
async function forgetOnce(git: ShadowGit): Promise<void> {
  const mark = join(git.gitDir, FORGOT_MARK);
  if (await stat(mark).catch(() => undefined)) return;
  if (await stat(join(git.gitDir, 'index')).catch(() => undefined)) {
    const inside = git.excludedInside().map((dir) => `${dir}/`);
    const unwanted = nulList(await git.must(['ls-files', '-z', '--cached'])).filter((path) => isSecretPath(path) || inside.some((dir) => path.startsWith(dir)));
    if (unwanted.length) await git.must(['rm', '-q', '-f', '--cached', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], unwanted.map(literal).join('\0'));
  }
  await writeFile(mark, '');
}

function literal(path: string): string {
  return `:(literal)${path}`;
}

const TREE_CACHE = 'vibe-agent-last-tree';

/** The snapshot last taken, valid while the index file is the one it was written from (same size, mtime, inode); `anyIndex`: whatever the index now. */
async function readTreeCache(git: ShadowGit, { anyIndex = false } = {}): Promise<Snapshot | undefined> {
  const [text, index] = await Promise.all([readFile(join(git.gitDir, TREE_CACHE), 'utf8').catch(() => ''), stat(join(git.gitDir, 'index')).catch(() => undefined)]);
  try {
    const cached = JSON.parse(text) as { tree?: unknown; index?: unknown; tooLarge?: unknown };
    const valid = index && typeof cached.tree === 'string' && (anyIndex || cached.index === indexStamp(index)) && Array.isArray(cached.tooLarge);
    return valid ? { tree: cached.tree as string, tooLarge: cached.tooLarge as string[] } : undefined;
  } catch {
    return undefined;
  }
}

async function writeTreeCache(git: ShadowGit, snapshot: Snapshot): Promise<void> {
  const index = await stat(join(git.gitDir, 'index')).catch(() => undefined);
  if (index) await writeFile(join(git.gitDir, TREE_CACHE), JSON.stringify({ ...snapshot, index: indexStamp(index) })).catch(() => undefined);
}

function indexStamp(index: { size: number; mtimeMs: number; ino: number }): string {
  return `${index.size}:${index.mtimeMs}:${index.ino}`;
}

/** git opens a FIFO .gitignore and waits on it for good (a hostile repository's trap): refuse before git runs. */
async function refuseSpecialIgnoreFiles(workTree: string): Promise<void> {
  for (const name of ['.gitignore', '.ignore', join('.git', 'info', 'exclude')]) {
    const entry = await lstat(join(workTree, name)).catch(() => undefined);
    if (entry && !entry.isFile() && !entry.isSymbolicLink()) throw new Error(`${name} is not a regular file`);
    if (entry?.isSymbolicLink()) {
      const target = await stat(join(workTree, name)).catch(() => undefined);
      if (target && !target.isFile()) throw new Error(`${name} links to something that is not a regular file`);
    }
  }
}
