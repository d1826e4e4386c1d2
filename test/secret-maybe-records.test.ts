import { expect, it } from 'vitest';
import { maybeSecretIn, MAYBE_SECRET } from '../src/workspace/secret-files.js';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => ((state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const PIECES = [
  '.env', '.env.local', 'x.env', '.envrc', 'credentials', 'config', 'config.json', 'hosts.yml', '.aws', '.ssh', '.SSH', '.gnupg', 'id_rsa',
  'id_ed25519.pub', 'server.pem', 'a.key', 'prod.tfvars.json', 'service-account.json', 'SERVICE_ACCOUNT', 'src', 'index.ts', 'lib', 'keys',
  'pem', 'env', 'ssh', 'é', '😀', '\u212a', 'secrets.yaml', 'a b', '-x', '.', '..x',
];

/** Paths as ripgrep prints them (no leading "./", no trailing separator) and a few a caller may hand over (a trailing backslash). */
function randomPath(next: () => number): string {
  const parts = Array.from({ length: 1 + Math.floor(next() * 4) }, () => {
    const piece = PIECES[Math.floor(next() * PIECES.length)]!;
    return next() < 0.3 ? piece.toUpperCase() : piece;
  });
  let path = parts.join(next() < 0.85 ? '/' : '\\');
  if (next() < 0.05) path += '\\';
  return path;
}

it('marks exactly the paths of NUL-joined text that MAYBE_SECRET holds for, with positions inside them, in order', () => {
  const next = random(21);
  let flagged = 0;
  for (let round = 0; round < 3_000; round++) {
    const paths = Array.from({ length: 1 + Math.floor(next() * 30) }, () => randomPath(next));
    const text = paths.join('\0');
    const ascii = !/[^\x00-\x7f]/.test(text);
    const variants = ascii ? [true, false] : [false];
    for (const asciiFlag of variants) {
      const positions = maybeSecretIn(text, asciiFlag);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      const marked = new Set<number>();
      let start = 0;
      paths.forEach((path, index) => {
        const end = start + path.length;
        if (positions.some((at) => at >= start && at < end)) marked.add(index);
        start = end + 1;
      });
      // No position falls on a separator.
      for (const at of positions) expect(text[at]).not.toBe('\0');
      const expected = new Set(paths.flatMap((path, index) => (MAYBE_SECRET.test(path) ? [index] : [])));
      expect(marked, text).toEqual(expected);
      flagged += expected.size;
    }
  }
  expect(flagged).toBeGreaterThan(10_000);
});
