import { walkFiles } from './gitignore-walker.js';
import { ripgrepMayWalk } from './ignore-file-guard.js';
import { PathHead } from './path-head.js';
import { listWithRipgrep } from './rg-list.js';
import type { SearchTarget } from './search-target.js';

export interface Listing {
  /** The first display paths in path order, at most the limit asked for. */
  head: string[];
  /** How many files were found. */
  total: number;
  /** Ignore files that were refused (a FIFO, a device, too large), whose rules were not applied. */
  warnings: string[];
}

export interface ListingRequest {
  target: SearchTarget;
  /** How many paths the head holds. */
  limit: number;
  /** A glob ripgrep may narrow its output with (search-glob.ts ripgrepTypeGlob); the target filters anyway. */
  typeGlob?: string;
  signal: AbortSignal;
}

/**
 * Every reported file under the target, counted, the first `limit` kept: through `rg --files`
 * when ripgrep is given and may walk the tree (ripgrepMayWalk, run beside it), else through the
 * JavaScript walker, which reports the ignore files it refused.
 */
export async function listFilesWith(ripgrep: string | undefined, request: ListingRequest): Promise<Listing> {
  const { target, signal } = request;
  if (ripgrep) {
    const stop = new AbortController();
    const head = new PathHead(request.limit);
    const listed = listWithRipgrep(ripgrep, target, head, AbortSignal.any([signal, stop.signal]), request.typeGlob);
    listed.catch(() => undefined);
    if (await ripgrepMayWalk(target.absolute, signal)) {
      await listed;
      return { head: head.sorted().map(target.display), total: head.total, warnings: [] };
    }
    stop.abort(new Error('an ignore file ripgrep must not open'));
  }
  return listFiles(request);
}

/** Every reported file under the target, through the JavaScript walker. */
export async function listFiles({ target, limit, signal }: ListingRequest): Promise<Listing> {
  const head = new PathHead(limit);
  const warnings: string[] = [];
  await walkFiles(target.absolute, {
    signal,
    onFile: (fromRoot) => {
      if (target.accepts(fromRoot)) head.add(fromRoot);
    },
    onWarning: (message) => warnings.push(message),
  });
  // The target's folder starts every display path, so their order is that of the paths below it.
  return { head: head.sorted().map(target.display), total: head.total, warnings };
}

/** The tool's output with a line per refused ignore file, so the model knows the rules were incomplete. */
export function withWarnings(output: string, warnings: readonly string[]): string {
  return warnings.length === 0 ? output : `${output}\n\n${warnings.map((warning) => `[Skipped ${warning}]`).join('\n')}`;
}
