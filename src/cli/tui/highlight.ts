import type { Theme } from '../display/theme.js';

/** Minimal, line-at-a-time colouring for fenced code: keywords, strings, comments, numbers. */
interface Language {
  keywords: Set<string>;
  lineComment: string[];
  /** Block comments; the state is carried from line to line. */
  block?: [string, string];
}

const words = (text: string) => new Set(text.split(/\s+/));
const C_LIKE = 'if else for while do switch case break continue return function const let var new class extends import export from default try catch finally throw typeof instanceof in of await async yield this super null undefined true false void static public private protected interface type enum implements';

const LANGUAGES: Record<string, Language> = {
  ts: { keywords: words(`${C_LIKE} readonly abstract declare namespace keyof as satisfies`), lineComment: ['//'], block: ['/*', '*/'] },
  js: { keywords: words(C_LIKE), lineComment: ['//'], block: ['/*', '*/'] },
  py: { keywords: words('def class return if elif else for while in not and or is None True False import from as with try except finally raise lambda yield pass break continue global nonlocal async await self'), lineComment: ['#'] },
  go: { keywords: words('func package import return if else for range switch case default break continue go defer chan map struct interface type var const nil true false select'), lineComment: ['//'], block: ['/*', '*/'] },
  rust: { keywords: words('fn let mut pub use mod struct enum impl trait for in while loop if else match return self Self crate super where as ref move async await dyn const static true false None Some Ok Err'), lineComment: ['//'], block: ['/*', '*/'] },
  sh: { keywords: words('if then else elif fi for in do done while case esac function return export local echo exit set unset'), lineComment: ['#'] },
  c: { keywords: words('int char float double void long short unsigned signed struct union enum typedef const static extern return if else for while do switch case break continue sizeof include define NULL true false class public private template namespace using auto'), lineComment: ['//'], block: ['/*', '*/'] },
  json: { keywords: words('true false null'), lineComment: [] },
  sql: { keywords: words('SELECT FROM WHERE INSERT INTO UPDATE DELETE CREATE TABLE JOIN LEFT RIGHT ON AND OR NOT NULL AS ORDER BY GROUP LIMIT VALUES SET select from where insert into update delete create table join on and or not null as order by group limit values set'), lineComment: ['--'] },
};

const ALIASES: Record<string, string> = {
  typescript: 'ts', tsx: 'ts', javascript: 'js', jsx: 'js', mjs: 'js', cjs: 'js', python: 'py', golang: 'go', rs: 'rust',
  bash: 'sh', shell: 'sh', zsh: 'sh', console: 'sh', cpp: 'c', 'c++': 'c', h: 'c', java: 'c', cs: 'c', kotlin: 'c', swift: 'c', jsonc: 'json',
};

export function languageOf(name: string): string | undefined {
  const key = name.trim().toLowerCase();
  const resolved = ALIASES[key] ?? key;
  return LANGUAGES[resolved] ? resolved : undefined;
}

/** Highlights fenced code line by line; `inBlock` carries an open block comment across lines. */
export class CodeHighlighter {
  private inBlock = false;
  private readonly language: Language | undefined;

  constructor(language: string, private readonly theme: Theme) {
    const name = languageOf(language);
    this.language = name ? LANGUAGES[name] : undefined;
  }

  line(text: string): string {
    const lang = this.language;
    if (!lang || !this.theme.enabled) return text;
    const t = this.theme;
    let out = '';
    let i = 0;
    while (i < text.length) {
      if (this.inBlock && lang.block) {
        const end = text.indexOf(lang.block[1], i);
        const stop = end < 0 ? text.length : end + lang.block[1].length;
        out += t.gray(text.slice(i, stop));
        i = stop;
        if (end >= 0) this.inBlock = false;
        continue;
      }
      const rest = text.slice(i);
      if (lang.block && rest.startsWith(lang.block[0])) {
        this.inBlock = true;
        out += t.gray(lang.block[0]);
        i += lang.block[0].length;
        continue;
      }
      if (lang.lineComment.some((marker) => rest.startsWith(marker))) {
        out += t.gray(rest);
        break;
      }
      const ch = text[i]!;
      if (ch === '"' || ch === "'" || ch === '`') {
        let j = i + 1;
        while (j < text.length && text[j] !== ch) j += text[j] === '\\' ? 2 : 1;
        out += t.green(text.slice(i, j + 1));
        i = j + 1;
        continue;
      }
      const word = /^[A-Za-z_$][\w$]*/.exec(rest)?.[0];
      if (word) {
        out += lang.keywords.has(word) ? t.magenta(word) : word;
        i += word.length;
        continue;
      }
      const number = /^\d[\d_.xXa-fA-F]*/.exec(rest)?.[0];
      if (number) {
        out += t.yellow(number);
        i += number.length;
        continue;
      }
      out += ch;
      i++;
    }
    return out;
  }
}
