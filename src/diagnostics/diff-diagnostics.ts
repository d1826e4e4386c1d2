import type { Diagnostic } from './diagnostic.js';

export interface DiagnosticChange {
  /** In the after set and not explained by one before: what this edit introduced. */
  introduced: Diagnostic[];
  /** In the before set with no counterpart after: what this edit fixed. */
  fixed: Diagnostic[];
}

/**
 * Compares two runs by file, code and message; positions only decide which of several identical
 * errors is the new one. `moveLine` maps a before line of `file` to where it is now (the edit
 * shifted it), so an error that only moved is not new.
 */
export function diffDiagnostics(before: readonly Diagnostic[], after: readonly Diagnostic[], moved?: { file: string; moveLine: (line: number) => number }): DiagnosticChange {
  const shifted = before.map((d) => (moved && d.file === moved.file && d.line > 0 ? { original: d, line: moved.moveLine(d.line) } : { original: d, line: d.line }));
  const groups = new Map<string, { before: typeof shifted; after: Diagnostic[] }>();
  const group = (d: Diagnostic) => {
    const key = `${d.file}\u0000${d.code}\u0000${d.message.trim()}`;
    let entry = groups.get(key);
    if (!entry) groups.set(key, (entry = { before: [], after: [] }));
    return entry;
  };
  for (const entry of shifted) group(entry.original).before.push(entry);
  for (const d of after) group(d).after.push(d);

  const introduced: Diagnostic[] = [];
  const fixed: Diagnostic[] = [];
  for (const { before: olds, after: news } of groups.values()) {
    const unmatched = new Set(news);
    const left: typeof shifted = [];
    for (const old of olds) {
      const same = news.find((d) => unmatched.has(d) && d.line === old.line);
      if (same) unmatched.delete(same);
      else left.push(old);
    }
    // Identical messages left over pair up nearest first; the rest are new or fixed.
    for (const old of left) {
      let best: Diagnostic | undefined;
      for (const d of unmatched) if (!best || Math.abs(d.line - old.line) < Math.abs(best.line - old.line)) best = d;
      if (best) unmatched.delete(best);
      else fixed.push(old.original);
    }
    introduced.push(...unmatched);
  }
  const order = (a: Diagnostic, b: Diagnostic) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column;
  return { introduced: introduced.sort(order), fixed: fixed.sort(order) };
}
