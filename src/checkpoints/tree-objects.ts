import { createHash } from 'node:crypto';
import type { ShadowGit } from './shadow-git.js';

/** A file as a tree holds it: its git mode (100644, 100755, 120000 a symlink, 160000 a nested repository) and blob. */
export interface TreeEntry {
  mode: string;
  sha: string;
}

/** One path that differs between two trees: `from`/`to` absent where the tree has no such file. */
export interface TreeChange {
  path: string;
  from?: TreeEntry;
  to?: TreeEntry;
}

export const SYMLINK_MODE = '120000';
export const NESTED_REPO_MODE = '160000';

/** Every file that differs between two trees, with its mode and blob on each side. */
export async function treeChanges(git: ShadowGit, from: string, to: string): Promise<TreeChange[]> {
  if (from === to) return [];
  const fields = (await git.must(['diff-tree', '-r', '-z', '--raw', '--no-renames', '--no-abbrev', from, to])).split('\0');
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [oldMode, newMode, oldSha, newSha] = fields[i]!.replace(/^:/, '').split(' ');
    const path = fields[i + 1]!;
    const entry = (mode: string | undefined, sha: string | undefined) => (mode && sha && !/^0+$/.test(mode) ? { mode, sha } : undefined);
    const fromEntry = entry(oldMode, oldSha);
    const toEntry = entry(newMode, newSha);
    changes.push({ path, ...(fromEntry ? { from: fromEntry } : {}), ...(toEntry ? { to: toEntry } : {}) });
  }
  return changes;
}

/** The contents of blobs, by id or "tree:path" name, in one git process; a name git has no blob for is absent. */
export async function readBlobs(git: ShadowGit, names: readonly string[]): Promise<Map<string, Buffer>> {
  const wanted = [...new Set(names)];
  const blobs = new Map<string, Buffer>();
  if (!wanted.length) return blobs;
  const out = await git.mustBytes(['cat-file', '--batch'], `${wanted.join('\n')}\n`);
  let at = 0;
  for (const name of wanted) {
    const headerEnd = out.indexOf(10, at);
    if (headerEnd === -1) break;
    const header = out.subarray(at, headerEnd).toString('utf8');
    at = headerEnd + 1;
    const [, type, size] = header.split(' ');
    if (header.endsWith(' missing') || size === undefined) continue;
    if (type === 'blob') blobs.set(name, out.subarray(at, at + Number(size)));
    at += Number(size) + 1;
  }
  return blobs;
}

/** The blob id git gives this content (sha-1, or sha-256 for a store that uses it). */
export function blobId(content: Buffer, like: string): string {
  return createHash(like.length === 64 ? 'sha256' : 'sha1')
    .update(`blob ${content.length}\0`)
    .update(content)
    .digest('hex');
}

/** Which blobs of `tree` exist at `paths` ("tree:path" lookups, one git process). */
export async function presentIn(git: ShadowGit, lookups: ReadonlyArray<{ tree: string; path: string }>): Promise<boolean[]> {
  const usable = lookups.map(({ path }) => !/[\n\r]/.test(path));
  const input = lookups.filter((_, i) => usable[i]).map(({ tree, path }) => `${tree}:${path}`);
  if (!input.length) return lookups.map(() => false);
  const lines = (await git.must(['cat-file', '--batch-check'], `${input.join('\n')}\n`)).split('\n');
  let line = 0;
  return usable.map((ok) => ok && / blob \d+$/.test(lines[line++] ?? ''));
}
