import { isAbsolute } from 'node:path';
import { confinedEntries } from '../workspace/confined-entries.js';
import { mentionFor } from './parse-mentions.js';

export interface Entry {
  name: string;
  isDir: boolean;
}

/** A folder's entries, by a path relative to the workspace. */
export type ListDir = (dir: string) => Entry[];

export interface MentionCompletion {
  text: string;
  cursor: number;
  /** More than one name fits: what the user may go on to type (folders end in `/`). */
  candidates: string[];
}

const MAX_CANDIDATES = 40;
/** `@partial` ending at the cursor: a quoted one (`@"my fi`) or a bare one (`@src/a`, `@my\ fi`). */
const PARTIAL = /(?:^|[\s([{])@("(?:[^"\\\n]|\\.)*|(?:[^\s\\"]|\\ )*)$/;

/**
 * Tab on an `@path` under the cursor: the path completed from the workspace's files when one name
 * fits (a folder gets its `/` and waits for more, a file a space after it), else as far as every
 * candidate agrees, with the candidates to show. Undefined: no mention is under the cursor. Only
 * paths inside the workspace are completed: an absolute path, `~` or a `..` step is left alone.
 */
export function completeMention(text: string, cursor: number, list: ListDir): MentionCompletion | undefined {
  const before = text.slice(0, cursor);
  const match = PARTIAL.exec(before);
  if (!match) return undefined;
  const written = match[1]!;
  const partial = written.startsWith('"') ? written.slice(1).replace(/\\(.)/g, '$1') : written.replace(/\\ /g, ' ');
  const slash = partial.lastIndexOf('/');
  const dir = partial.slice(0, slash + 1);
  const base = partial.slice(slash + 1);
  const unchanged = { text, cursor, candidates: [] };
  if (isAbsolute(dir) || dir.startsWith('~') || dir.split('/').includes('..')) return unchanged;
  const names = list(dir || '.')
    .filter((entry) => entry.name.startsWith(base) && (base.startsWith('.') || !entry.name.startsWith('.')) && entry.name !== '.git')
    .map((entry) => (entry.isDir ? `${entry.name}/` : entry.name))
    .sort();
  if (names.length === 0) return unchanged;
  const start = before.length - written.length - 1;
  const replace = (mention: string) => ({ text: text.slice(0, start) + mention + text.slice(cursor), cursor: start + mention.length });
  if (names.length === 1) {
    const path = dir + names[0]!;
    // A folder stays open (an unclosed quote, no space) so the next Tab goes on into it.
    if (path.endsWith('/')) return { ...replace(openMention(path)), candidates: [] };
    const after = text[cursor] === ' ' ? '' : ' ';
    const done = replace(`${mentionFor(path)}${after}`);
    return { ...done, cursor: done.cursor + (after ? 0 : 1), candidates: [] };
  }
  const common = commonPrefix(names);
  const shown = names.length > MAX_CANDIDATES ? [...names.slice(0, MAX_CANDIDATES), `… ${names.length - MAX_CANDIDATES} more`] : names;
  return { ...replace(openMention(dir + common)), candidates: shown };
}

/** A mention still being typed: quoted without its closing quote when the path needs quotes. */
function openMention(path: string): string {
  return /[\s"\\]/.test(path) ? `@"${path.replace(/[\\"]/g, (ch) => `\\${ch}`)}` : `@${path}`;
}

function commonPrefix(words: string[]): string {
  let prefix = words[0]!;
  for (const word of words) while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/**
 * The workspace's folders as the completion reads them, through the one confined listing: a folder
 * that leads outside the workspace, or cannot be read, lists nothing; links out and secret files are left out.
 */
export function workspaceLister(workspace: string): ListDir {
  return (dir) => confinedEntries(workspace, dir);
}
