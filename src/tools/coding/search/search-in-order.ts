import { readSearchable, searchText, type Candidate, type CompiledQuery } from './js-grep.js';
import type { MatchCollector } from './match-collector.js';
import { byPath } from './path-order.js';

/** How long the search runs between two yields to the event loop (so an abort is seen). */
const SLICE_MS = 8;

/**
 * Searches the candidates in output order (path-order.ts) and stops once more than `maxResults`
 * matching lines are known: what is shown is then exactly the head of the whole result, and the
 * rest is neither read nor counted. Returns whether it stopped so (more matches exist).
 */
export async function searchInOrder(candidates: Candidate[], query: CompiledQuery, collector: MatchCollector, maxResults: number, signal: AbortSignal): Promise<boolean> {
  candidates.sort(byPath);
  let sliceStart = performance.now();
  for (const file of candidates) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      signal.throwIfAborted();
      sliceStart = performance.now();
    }
    const text = readSearchable(file.absolute);
    if (text !== undefined) searchText(text, file.path, query, collector);
    if (collector.totalMatches > maxResults) return true;
  }
  return false;
}
