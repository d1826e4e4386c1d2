/**
 * The one suggestion rule for every name a user types that we do not know: a flag, a config key,
 * a provider, a sub-command. The only known name that `typed` begins, else the nearest within two
 * edits (a swap of neighbours is one edit); undefined when none is close.
 */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  if (typed === '') return undefined;
  const extending = known.filter((name) => name.startsWith(typed));
  if (extending.length === 1) return extending[0];
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (distance <= 2 && distance < typed.length && distance < name.length && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** " (did you mean --model?)", or "" when nothing is close; `show` writes the name as the user would type it. */
export function didYouMean(typed: string, known: readonly string[], show: (name: string) => string = (name) => `"${name}"`): string {
  const suggestion = closestName(typed, known);
  return suggestion === undefined ? '' : ` (did you mean ${show(suggestion)}?)`;
}

/** Levenshtein distance, with a swap of neighbours counting as one edit (the usual typo). */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
