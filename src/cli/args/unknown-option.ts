/** "unknown option --modle (did you mean --model?)": the message for a flag we do not have. */
export function unknownOptionMessage(typed: string, known: readonly string[]): string {
  const suggestion = closestOption(typed.replace(/^-+/, '').replace(/=.*$/, ''), known);
  return `unknown option ${typed}${suggestion ? ` (did you mean --${suggestion}?)` : ''}`;
}

/** The option the user most likely meant: the only one `name` begins, or one within two edits; undefined when none is close. */
export function closestOption(name: string, known: readonly string[]): string | undefined {
  if (name === '') return undefined;
  const extending = known.filter((option) => option.startsWith(name));
  if (extending.length === 1) return extending[0];
  let best: { option: string; distance: number } | undefined;
  for (const option of known) {
    const distance = editDistance(name, option);
    // Two edits turn any one letter into `--to`: an option must keep more than the edits change.
    if (distance <= 2 && distance < option.length && (!best || distance < best.distance)) best = { option, distance };
  }
  return best?.option;
}

/**
 * The command (or command word) a lone word most likely meant: one it begins (three letters at
 * least), or one within an edit (two for names over four letters); undefined when none is close.
 */
export function closestCommand(word: string, names: readonly string[]): string | undefined {
  if (word.length >= 3) {
    const extending = names.filter((name) => name.startsWith(word.toLowerCase()));
    if (extending.length === 1) return extending[0];
  }
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(word.toLowerCase(), name);
    if (distance <= (name.length > 4 ? 2 : 1) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
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
