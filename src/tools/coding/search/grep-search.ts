import { ripgrepMayWalk } from './ignore-file-guard.js';
import { walkCandidates, type CompiledQuery } from './js-grep.js';
import { MatchCollector } from './match-collector.js';
import { filesWithMatches, type RgGrepQuery } from './rg-grep.js';
import { searchInPathOrder } from './rg-ordered-search.js';
import { searchInOrder } from './search-in-order.js';
import type { SearchTarget } from './search-target.js';

/**
 * Files ripgrep may search in path order before grep gives up on stopping early (it gives up
 * sooner when the matches so far are too few to reach the limit by then): a few percent of the
 * parallel search's work at 100,000 files.
 */
export const ORDERED_FILE_BUDGET = 4_000;

/** How many greps this process answered from the parallel search, the ordered one having given up; for tests. */
export let parallelSearches = 0;

export interface GrepSearch {
  rgQuery: RgGrepQuery;
  query: CompiledQuery;
  maxResults: number;
  context: number;
}

export interface GrepFound {
  collector: MatchCollector;
  /** More than maxResults matching lines exist; the collector holds the head of them, uncounted. */
  stopped: boolean;
  /** Ignore files the JavaScript walker refused. */
  warnings: string[];
}

/**
 * The matching lines below a directory, in path order. With ripgrep: a search in path order that
 * stops at the limit (searchInPathOrder) and, beside it, the parallel one (the files with a match,
 * read in order by the shared search), used only when the first gives up and killed otherwise.
 * Also beside them runs the check that every ignore file ripgrep could open is safe
 * (ripgrepMayWalk); if not, both are stopped and the JavaScript walker lists the candidates. All
 * paths print the same bytes.
 */
export async function grepTree(ripgrep: string | undefined, target: SearchTarget, search: GrepSearch, signal: AbortSignal): Promise<GrepFound> {
  const fresh = () => new MatchCollector(search.maxResults, search.context);
  const warnings: string[] = [];
  if (ripgrep && !target.isFile) {
    const stop = new AbortController();
    const stopParallel = new AbortController();
    const collector = fresh();
    const ordered = searchInPathOrder(ripgrep, target, { ...search, collector, fileBudget: ORDERED_FILE_BUDGET }, AbortSignal.any([signal, stop.signal]));
    ordered.catch(() => undefined);
    // Started at once, so a rare word does not wait for the ordered pass to give up; killed if that pass is enough.
    const parallel = filesWithMatches(ripgrep, target, search.rgQuery, AbortSignal.any([signal, stop.signal, stopParallel.signal]));
    parallel.catch(() => undefined);
    if (await ripgrepMayWalk(target.absolute, signal)) {
      // A ripgrep without --include-zero (before 12) fails the ordered pass: the parallel search answers.
      const outcome = await ordered.catch((error: unknown) => {
        if (signal.aborted) throw error;
        return 'over-budget' as const;
      });
      if (outcome !== 'over-budget') {
        stopParallel.abort(new Error('the ordered search was enough'));
        return { collector, stopped: outcome === 'stopped', warnings };
      }
      parallelSearches++;
      const candidates = await parallel;
      const all = fresh();
      return { collector: all, stopped: await searchInOrder(candidates, search.query, all, search.maxResults, signal), warnings };
    }
    stop.abort(new Error('an ignore file ripgrep must not open'));
  }
  const candidates = await walkCandidates(target, signal, (message: string) => warnings.push(message));
  const collector = fresh();
  return { collector, stopped: await searchInOrder(candidates, search.query, collector, search.maxResults, signal), warnings };
}
