import { walkFiles } from './gitignore-walker.js';
import type { SearchTarget } from './search-target.js';

export interface Listing {
  /** Display paths, unsorted. */
  files: string[];
  /** Ignore files that were refused (a FIFO, a device, too large), whose rules were not applied. */
  warnings: string[];
}

/**
 * Every reported file under the target, always through the JavaScript walker: ripgrep 13 blocks
 * for good on a .gitignore that is a FIFO and reads one that links to /dev/zero until memory runs
 * out, and the walker lists as fast as `rg --files` (bench/search.bench.mjs).
 */
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
