import { diffLines } from 'diff';

/** One change of a file between the land's base and the session's tip: lines removed and lines added, in place. */
export interface Hunk {
  /** The 1-based line of the base where it starts. */
  line: number;
  removed: string;
  added: string;
}

type Part = { kept: string } | { hunk: Hunk };

/**
 * The file's change as hunks, for choosing: undefined when it cannot be split (a binary file, or one
 * created or deleted — those land whole or not at all).
 */
export function splitHunks(base: Buffer | undefined, theirs: Buffer | undefined): Part[] | undefined {
  if (base === undefined || theirs === undefined || base.includes(0) || theirs.includes(0)) return undefined;
  const parts: Part[] = [];
  let line = 1;
  let open: Hunk | undefined;
  for (const change of diffLines(base.toString('utf8'), theirs.toString('utf8'))) {
    if (!change.added && !change.removed) {
      open = undefined;
      parts.push({ kept: change.value });
      line += change.count ?? 0;
      continue;
    }
    if (!open) {
      open = { line, removed: '', added: '' };
      parts.push({ hunk: open });
    }
    if (change.removed) {
      open.removed += change.value;
      line += change.count ?? 0;
    } else open.added += change.value;
  }
  return parts;
}

export const hunksIn = (parts: Part[]): Hunk[] => parts.flatMap((part) => ('hunk' in part ? [part.hunk] : []));

/** The session's version of the file with only `chosen` of its hunks: the others keep the base's lines. */
export function withChosen(parts: Part[], chosen: ReadonlySet<Hunk>): Buffer {
  return Buffer.from(parts.map((part) => ('kept' in part ? part.kept : chosen.has(part.hunk) ? part.hunk.added : part.hunk.removed)).join(''), 'utf8');
}

/** A hunk as a unified diff shows it (without context). */
export function showHunk(path: string, hunk: Hunk): string {
  const lines = (text: string, mark: string) => (text ? text.replace(/\n$/, '').split('\n').map((one) => `${mark}${one}`) : []);
  return [`${path} at line ${hunk.line}:`, ...lines(hunk.removed, '-'), ...lines(hunk.added, '+')].join('\n');
}
