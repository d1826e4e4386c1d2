import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Capture } from './pre-image.js';
import { nulList, type ShadowGit } from './shadow-git.js';
import type { Snapshot } from './snapshot.js';

let overlays = 0;

/**
 * `base` with some files as captured: each captured path takes its captured blob, or leaves the
 * tree when it was absent (or too large: then it is reported as such). A path the base does not
 * hold is added only where a snapshot would have added it (not ignored); `skip` leaves the base's
 * entry as it is. Built in an index file of its own, so the shadow index (what the next snapshot
 * compares the workspace with) is not touched.
 */
export async function overlayTree(git: ShadowGit, base: Snapshot, captures: ReadonlyMap<string, Capture>): Promise<Snapshot> {
  const wanted = [...captures].filter(([, capture]) => capture.kind !== 'skip');
  if (!wanted.length) return base;
  const indexFile = join(git.gitDir, `vibe-agent-overlay-${process.pid}-${++overlays}`);
  try {
    await git.must(['read-tree', base.tree], undefined, { indexFile });
    const held = new Set(nulList(await git.must(['ls-files', '-z', '--', ...wanted.map(([path]) => `:(literal)${path}`)], undefined, { indexFile })));
    const fresh = wanted.filter(([path, capture]) => capture.kind === 'blob' && !held.has(path)).map(([path]) => path);
    const ignored = new Set(fresh.length ? nulList((await git.run(['check-ignore', '--no-index', '-z', '--stdin'], `${fresh.join('\0')}\0`)).stdout) : []);
    const lines: string[] = [];
    const tooLarge = new Set(base.tooLarge);
    for (const [path, capture] of wanted) {
      if (capture.kind === 'blob') {
        tooLarge.delete(path);
        if (held.has(path) || !ignored.has(path)) lines.push(`${capture.mode} ${capture.sha}\t${path}`);
      } else {
        if (capture.kind === 'tooLarge') tooLarge.add(path);
        else tooLarge.delete(path);
        if (held.has(path)) lines.push(`0 ${'0'.repeat(40)}\t${path}`);
      }
    }
    if (lines.length) await git.must(['update-index', '-z', '--add', '--replace', '--index-info'], `${lines.join('\0')}\0`, { indexFile });
    const tree = (await git.must(['write-tree'], undefined, { indexFile })).trim();
    return { tree, tooLarge: [...tooLarge].sort() };
  } finally {
    await rm(indexFile, { force: true });
    await rm(`${indexFile}.lock`, { force: true });
  }
}
