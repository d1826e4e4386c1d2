/**
 * A flag whose value is optional, which node:util parseArgs cannot express. The word after the flag
 * is its value when `isValue` takes it (`last`: it is the line's last word); otherwise the flag stands
 * alone. Rewritten to `--long=VALUE` or `--long=` (no value); `--long=VALUE` as given always works, and
 * nothing after `--` is touched.
 */
export function normalizeOptionalValueFlag(argv: string[], names: readonly string[], long: string, isValue: (word: string, last: boolean) => boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (!names.includes(word)) {
      out.push(word);
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && isValue(next, i + 2 >= argv.length)) {
      out.push(`${long}=${next}`);
      i++;
    } else out.push(`${long}=`);
  }
  return out;
}
