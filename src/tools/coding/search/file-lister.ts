import { walkFiles } from './gitignore-walker.js';
import { ripgrepMayWalk } from './ignore-file-guard.js';
import { listWithRipgrep } from './rg-list.js';
import type { SearchTarget } from './search-target.js';

export interface Listing {
  /** Display paths, unsorted. */
  files: string[];
  /** Ignore files that were refused (a FIFO, a device, too large), whose rules were not applied. */
  warnings: string[];
}

/**
 * Every reported file under the target: through `rg --files` when ripgrep is given and may walk
 * the tree (ripgrepMayWalk, run beside it), else through the JavaScript walker, which reports the
 * ignore files it refused.
 */
export async function listFilesWith(ripgrep: string | undefined, target: SearchTarget, signal: AbortSignal): Promise<Listing> {
  if (ripgrep) {
    const stop = new AbortController();
    const both = AbortSignal.any([signal, stop.signal]);
    const listed = listWithRipgrep(ripgrep, target, both);
    listed.catch(() => undefined);
    if (await ripgrepMayWalk(target.absolute, signal)) return { files: await listed, warnings: [] };
    stop.abort(new Error('an ignore file ripgrep must not open'));
  }
  return listFiles(target, signal);
}

/** Every reported file under the target, through the JavaScript walker. */
export async function listFiles(target: SearchTarget, signal: AbortSignal): Promise<Listing> {
  const listing: Listing = { files: [], warnings: [] };
  await walkFiles(target.absolute, {
    signal,
    onFile: (fromRoot) => {
      if (target.accepts(fromRoot)) listing.files.push(target.display(fromRoot));
    },
    onWarning: (message) => listing.warnings.push(message),
  });
  return listing;
}

/** The tool's output with a line per refused ignore file, so the model knows the rules were incomplete. */
export function withWarnings(output: string, warnings: readonly string[]): string {
  return warnings.length === 0 ? output : `${output}\n\n${warnings.map((warning) => `[Skipped ${warning}]`).join('\n')}`;
}
