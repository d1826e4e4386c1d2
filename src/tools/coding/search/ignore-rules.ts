import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { ANYWHERE, readOwnText, readOwnTextIfPresent, RefusedFileError } from '../../../workspace/read-own-file.js';

/** ripgrep has no cap; this is far above any real ignore file, and keeps /dev/zero out. */
export const MAX_IGNORE_FILE_BYTES = 4 * 1024 * 1024;

/** Told about an ignore file that was refused (a FIFO, a device, too large): its rules were not applied. */
export type IgnoreWarn = (message: string) => void;

/**
 * The ignore files of one directory, with ripgrep's precedence: `.rgignore` over `.ignore` over
 * `.gitignore` over `.git/info/exclude`, the deepest directory first within each kind; gitignore
 * rules stop at the nearest directory holding `.git` (a repository root). Each entry path is
 * matched against a file's rules by itself, as ripgrep does, not through its parent directories:
 * the walk has already decided those, and an explicitly searched directory is searched even when
 * a parent's ignore file excludes it.
 */
export interface IgnoreDir {
  readonly parent: IgnoreDir | undefined;
  /** Path of this directory relative to the search root ('' for the root); undefined above it. */
  readonly fromRoot: string | undefined;
  /** For a directory above the search root: the search root relative to it. */
  readonly toRoot: string | undefined;
  readonly custom?: Matcher;
  readonly dot?: Matcher;
  readonly git?: Matcher;
  readonly exclude?: Matcher;
  readonly hasGit: boolean;
  /** Nearest directories (this one included) that have rules or a .git, deepest first. */
  readonly chain: readonly IgnoreDir[];
}

type Matcher = (path: string) => 'ignore' | 'keep' | undefined;

const KINDS = ['custom', 'dot', 'git', 'exclude'] as const;
export const IGNORE_FILE_NAMES = { custom: '.rgignore', dot: '.ignore', git: '.gitignore' } as const;

interface SelfTestingRules {
  _rules: { test(path: string, mode: string): { ignored: boolean; unignored: boolean } };
}

/**
 * `ignore`'s public methods test a path through its parent directories, which would let a shallow
 * ignore file veto what a deeper one re-included. Its internal rule manager tests one path alone
 * ("without recursively checking parent directories", says its source). The package is pinned
 * exactly; the check turns a changed internal into a loud error rather than a different answer.
 */
function compile(text: string): Matcher | undefined {
  if (!/^\s*[^\s#]/m.test(text)) return undefined;
  const ig: Ignore = ignore({ ignorecase: false }).add(text);
  const rules = (ig as unknown as SelfTestingRules)._rules;
  if (typeof rules?.test !== 'function') throw new Error('The installed "ignore" package lacks RuleManager.test; expected ignore@7.0.17.');
  return (path) => {
    const result = rules.test(path, 'regex');
    return result.ignored ? 'ignore' : result.unignored ? 'keep' : undefined;
  };
}

function readRules(path: string, warn: IgnoreWarn): Matcher | undefined {
  let text: string;
  try {
    text = readOwnText(path, { within: ANYWHERE, maxBytes: MAX_IGNORE_FILE_BYTES });
  } catch (error) {
    if (!(error instanceof RefusedFileError)) throw error;
    if (error.code !== 'ENOENT' && error.code !== 'EDANGLING' && error.code !== 'EUNREADABLE') warn(`${error.message.replace(/\.$/, '')}, so its rules were not applied.`);
    return undefined;
  }
  return compile(text);
}

function makeDir(parent: IgnoreDir | undefined, fields: Omit<IgnoreDir, 'parent' | 'chain'>): IgnoreDir {
  const dir = { parent, ...fields, chain: [] as IgnoreDir[] };
  const relevant = dir.hasGit || KINDS.some((kind) => dir[kind]);
  dir.chain = relevant ? [dir, ...(parent?.chain ?? [])] : [...(parent?.chain ?? [])];
  return dir;
}

/** Reads (and so vets) the `info/exclude` of the repository whose `.git` is in `dir`; `warn` hears of a refused one. */
export function checkGitExclude(dir: string, warn: IgnoreWarn): void {
  gitExclude(dir, warn);
}

function gitExclude(dir: string, warn: IgnoreWarn): Matcher | undefined {
  return readRules(join(gitCommonDir(dir), 'info', 'exclude'), warn);
}

const GIT_POINTER_BYTES = 64 * 1024;

/** `.git` itself, or in a linked worktree (where `.git` is a file) the repository's shared git dir. */
function gitCommonDir(dir: string): string {
  const dotGit = join(dir, '.git');
  let pointer: string | undefined;
  try {
    pointer = readOwnTextIfPresent(dotGit, { within: ANYWHERE, maxBytes: GIT_POINTER_BYTES });
  } catch {
    pointer = undefined;
  }
  if (pointer === undefined) return dotGit;
  const gitDir = /^gitdir:\s*(.+?)\s*$/m.exec(pointer)?.[1];
  if (!gitDir) return dotGit;
  const worktreeGitDir = resolve(dir, gitDir);
  try {
    return resolve(worktreeGitDir, readOwnText(join(worktreeGitDir, 'commondir'), { within: ANYWHERE, maxBytes: GIT_POINTER_BYTES }).trim());
  } catch {
    return worktreeGitDir;
  }
}

/** The ignore files of the directories above the search root, up to the filesystem root. */
export function loadAncestors(root: string, warn: IgnoreWarn): IgnoreDir | undefined {
  const ancestors: string[] = [];
  if (dirname(root) === root) return undefined;
  for (let dir = dirname(root); ; dir = dirname(dir)) {
    ancestors.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  let current: IgnoreDir | undefined;
  for (const dir of ancestors) {
    const hasGit = existsSync(join(dir, '.git'));
    current = makeDir(current, {
      fromRoot: undefined,
      toRoot: relative(dir, root).split(sep).join('/'),
      custom: readRules(join(dir, IGNORE_FILE_NAMES.custom), warn),
      dot: readRules(join(dir, IGNORE_FILE_NAMES.dot), warn),
      git: readRules(join(dir, IGNORE_FILE_NAMES.git), warn),
      exclude: hasGit ? gitExclude(dir, warn) : undefined,
      hasGit,
    });
  }
  return current;
}

/** A directory met during the walk; `names` is its listing, so absent ignore files cost nothing. */
export function enterDir(parent: IgnoreDir | undefined, absolute: string, fromRoot: string, names: ReadonlySet<string>, warn: IgnoreWarn): IgnoreDir {
  const hasGit = names.has('.git');
  const load = (name: string) => (names.has(name) ? readRules(join(absolute, name), warn) : undefined);
  return makeDir(parent, {
    fromRoot,
    toRoot: undefined,
    custom: load(IGNORE_FILE_NAMES.custom),
    dot: load(IGNORE_FILE_NAMES.dot),
    git: load(IGNORE_FILE_NAMES.git),
    exclude: hasGit ? gitExclude(absolute, warn) : undefined,
    hasGit,
  });
}

function pathFrom(dir: IgnoreDir, fromRoot: string): string {
  if (dir.toRoot !== undefined) return dir.toRoot === '' ? fromRoot : `${dir.toRoot}/${fromRoot}`;
  return dir.fromRoot === '' ? fromRoot : fromRoot.slice(dir.fromRoot!.length + 1);
}

/** True when an entry of `dir` (path relative to the search root) is ignored. */
export function isIgnored(dir: IgnoreDir, fromRoot: string, isDirectory: boolean): boolean {
  const verdicts: Record<(typeof KINDS)[number], 'ignore' | 'keep' | undefined> = { custom: undefined, dot: undefined, git: undefined, exclude: undefined };
  let sawGit = false;
  for (const level of dir.chain) {
    const path = pathFrom(level, fromRoot) + (isDirectory ? '/' : '');
    if (!verdicts.custom && level.custom) verdicts.custom = level.custom(path);
    if (!verdicts.dot && level.dot) verdicts.dot = level.dot(path);
    if (!sawGit && !verdicts.git && level.git) verdicts.git = level.git(path);
    if (!sawGit && !verdicts.exclude && level.exclude) verdicts.exclude = level.exclude(path);
    sawGit ||= level.hasGit;
  }
  return (verdicts.custom ?? verdicts.dot ?? verdicts.git ?? verdicts.exclude) === 'ignore';
}
