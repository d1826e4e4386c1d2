const SLASH = 0x2f;

/**
 * The order both search tools print paths in: ripgrep's `--sort path`, a depth-first walk with
 * each folder's entries sorted by the bytes of their names. So a folder's files come before a
 * sibling whose name extends the folder's ('src/foo/bar.ts' before 'src/foo-bar.ts' and
 * 'src/foo.ts'), and names compare by code point (UTF-8's byte order), not by UTF-16 unit as
 * JavaScript's `<` does. Sharing ripgrep's order lets grep read its ordered output and stop early.
 */
export function comparePaths(a: string, b: string): number {
  return comparePathIn(a, 0, a.length, b);
}

/** comparePaths(text.slice(start, end), b) without making the slice: a listing compares most paths it reads only once. */
export function comparePathIn(text: string, start: number, end: number, b: string): number {
  const length = Math.min(end - start, b.length);
  let i = 0;
  while (i < length && text.charCodeAt(start + i) === b.charCodeAt(i)) i++;
  if (i === length) return end - start - b.length;
  return rank(text.charCodeAt(start + i)) - rank(b.charCodeAt(i));
}

/**
 * A UTF-16 unit's place: "/" ends a name, so it sorts before every character; surrogates (which
 * start the code points above U+FFFF) after U+E000–U+FFFF. At the first unit that differs, both
 * strings are at the same place in a character or one starts a new one, so ranking units is
 * comparing code points.
 */
function rank(unit: number): number {
  if (unit === SLASH) return -1;
  if (unit < 0xd800) return unit;
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}

export function byPath(a: { path: string }, b: { path: string }): number {
  return comparePaths(a.path, b.path);
}
