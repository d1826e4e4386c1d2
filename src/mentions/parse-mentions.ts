/** One `@path` in a prompt: where it stands in the text and the path it names. */
export interface Mention {
  /** The path, with quotes and escapes removed: `@"my file.md"` and `@my\ file.md` both give `my file.md`. */
  path: string;
  /** Index of the `@` and one past the mention's last character, in the prompt. */
  start: number;
  end: number;
}

/** Punctuation that ends a sentence rather than a path: `see @src/a.ts.` names `src/a.ts`. */
const TRAILING = /[.,;:!?)\]}'"`]+$/;

/**
 * The `@` mentions of a prompt, in order. A mention starts with `@` at the start of the text or
 * after whitespace or an opening bracket, so `me@example.com` and `\@name` stay text. Its path is
 * `"quoted"` (with `\"` and `\\` escapes), or runs to the next unescaped whitespace (`\ ` keeps a
 * space), less trailing sentence punctuation. Which mentions name files is for the caller to find out.
 */
export function parseMentions(prompt: string): Mention[] {
  const mentions: Mention[] = [];
  for (let at = prompt.indexOf('@'); at !== -1; at = prompt.indexOf('@', at + 1)) {
    if (at > 0 && !/[\s([{]/.test(prompt[at - 1]!)) continue;
    const mention = prompt[at + 1] === '"' ? quoted(prompt, at) : bare(prompt, at);
    if (!mention) continue;
    mentions.push(mention);
    at = mention.end - 1;
  }
  return mentions;
}

function quoted(prompt: string, at: number): Mention | undefined {
  let path = '';
  for (let i = at + 2; i < prompt.length; i++) {
    const ch = prompt[i]!;
    if (ch === '\n') return undefined;
    if (ch === '\\' && (prompt[i + 1] === '"' || prompt[i + 1] === '\\')) {
      path += prompt[++i];
      continue;
    }
    if (ch === '"') return path === '' ? undefined : { path, start: at, end: i + 1 };
    path += ch;
  }
  return undefined;
}

function bare(prompt: string, at: number): Mention | undefined {
  let raw = '';
  let i = at + 1;
  while (i < prompt.length) {
    const ch = prompt[i]!;
    if (ch === '\\' && prompt[i + 1] === ' ') {
      raw += '\\ ';
      i += 2;
      continue;
    }
    if (/\s/.test(ch)) break;
    raw += ch;
    i++;
  }
  const trailing = TRAILING.exec(raw)?.[0] ?? '';
  // A trailing `\ ` stays part of the path (`@a\ ` is "a "), so only unescaped punctuation is cut.
  const kept = raw.slice(0, raw.length - trailing.length);
  if (kept === '' || kept.startsWith('@')) return undefined;
  return { path: kept.replace(/\\ /g, ' '), start: at, end: at + 1 + kept.length };
}

/** Glob characters: `@src/**\/*.test.ts` names the files that match, not one path. */
export function isGlobMention(path: string): boolean {
  return /[*?[{]/.test(path);
}

/** How to write `path` as a mention that parses back to it: quoted when it holds a space or a quote. */
export function mentionFor(path: string): string {
  return /[\s"\\]|^@/.test(path) || TRAILING.test(path) ? `@"${path.replace(/[\\"]/g, (ch) => `\\${ch}`)}"` : `@${path}`;
}
