import { readSearchable, searchText, type CompiledQuery } from './js-grep.js';
import type { MatchCollector } from './match-collector.js';
import { candidateMaker, checkExit, searchFlags, type RgGrepQuery } from './rg-grep.js';
import { runRipgrep } from './rg-runner.js';
import type { SearchTarget } from './search-target.js';

/**
 * `stopped`: more than maxResults matching lines were found (what the collector holds is the head
 * of the whole result); `complete`: the whole tree was searched; `over-budget`: the budget of files
 * was searched first, and the collector is to be dropped.
 */
export type OrderedOutcome = 'stopped' | 'complete' | 'over-budget';

export interface OrderedSearch {
  rgQuery: RgGrepQuery;
  query: CompiledQuery;
  collector: MatchCollector;
  maxResults: number;
  /** How many files ripgrep may search before the pass gives up. */
  fileBudget: number;
}

/** How often (in files searched) the pass checks whether it is on course to reach the limit within its budget. */
const CHECK_EVERY = 250;
/**
 * An earlier look, after this many files: the pass gives up if its matches so far are under a
 * quarter of the rate the budget needs (with the default limit: none at all), so a rare word
 * leaves the two cores to the parallel search sooner.
 */
const FIRST_LOOK = 64;

/**
 * One ripgrep, single-threaded, printing every file it searches in path order (`--sort path`,
 * path-order.ts) with its count of matching lines (`--count --include-zero`, so even a file
 * without a match shows progress). Each file with a match is read at once by the search both
 * engines share, and ripgrep is killed as soon as more than maxResults lines are known: a common
 * word is found in the first few files and the rest of the tree is never read. A rare one would
 * make this a slow walk of the whole tree on one core, so it gives up (the caller then uses the
 * parallel search, filesWithMatches, started beside it) once the matches found so far say the
 * limit will not be reached within `fileBudget` files: every 250 files it checks the rate (and
 * once after 64), so a word found nowhere stops it after 64 files, one found often enough runs on,
 * and none runs past the budget.
 */
export async function searchInPathOrder(binary: string, target: SearchTarget, search: OrderedSearch, signal: AbortSignal): Promise<OrderedOutcome> {
  const { query, collector, maxResults, fileBudget } = search;
  const candidate = candidateMaker(target);
  const stop = new AbortController();
  let outcome: OrderedOutcome | undefined;
  let searched = 0;
  const onFile = (printed: string, count: number) => {
    searched++;
    const file = count > 0 ? candidate(printed) : undefined;
    if (file) {
      const text = readSearchable(file.absolute);
      if (text !== undefined) searchText(text, file.path, query, collector);
    }
    if (collector.totalMatches > maxResults) outcome = 'stopped';
    else if (searched % CHECK_EVERY === 0 && collector.totalMatches * fileBudget < (maxResults + 1) * searched) outcome = 'over-budget';
    else if (searched === FIRST_LOOK && collector.totalMatches * fileBudget * 4 < (maxResults + 1) * searched) outcome = 'over-budget';
    if (outcome) stop.abort(new Error(`the ordered search ${outcome}`));
  };
  // With --null a file is printed as "path\0count\n": a record holds the count of the path before it, then the next path.
  let path: string | undefined;
  try {
    // Line-buffered: each file's count arrives as it is searched, not in blocks of hundreds.
    const run = await runRipgrep(binary, ['--count', '--include-zero', '--sort', 'path', '--line-buffered', ...searchFlags(search.rgQuery)], {
      cwd: target.absolute,
      signal: AbortSignal.any([signal, stop.signal]),
      onRecord(record) {
        if (outcome) return;
        if (path === undefined) {
          path = record;
          return;
        }
        const newline = record.indexOf('\n');
        onFile(path, Number(record.slice(0, newline)));
        path = record.slice(newline + 1);
      },
    });
    checkExit(run, searched > 0);
    return 'complete';
  } catch (error) {
    if (outcome && !signal.aborted) return outcome;
    throw error;
  }
}
