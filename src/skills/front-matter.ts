import { parsePlainMapping } from './plain-yaml.js';
import { yamlPackage } from './yaml-package.js';

export type FrontMatter =
  | { ok: true; data: Record<string, unknown>; body: string; bodyLine: number }
  | { ok: false; line: number; message: string };

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

/**
 * YAML front matter between `---` lines, then the body. `line` is 1-based in the whole file, so a
 * warning can say `SKILL.md:3`. A file without front matter is all body (`data` empty).
 */
export function parseFrontMatter(text: string): FrontMatter {
  const opening = OPENING.exec(text);
  if (!opening) return { ok: true, data: {}, body: text, bodyLine: 1 };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return { ok: false, line: 1, message: 'front matter opened with --- is never closed' };
  const yaml = rest.slice(0, closing.index);
  const yamlLines = yaml.split('\n').length - 1;
  const afterClosing = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, '');
  const plain = parsePlainMapping(yaml);
  if (plain) return { ok: true, data: plain, body: afterClosing, bodyLine: yamlLines + 3 };
  const document = yamlPackage().parseDocument(yaml, { prettyErrors: false });
  const error = document.errors[0];
  if (error) {
    // The line within the YAML (clamped: an unclosed bracket is reported at the end), then past the opening ---.
    const yamlLine = Math.min(yaml.slice(0, error.pos[0]).split('\n').length, Math.max(1, yamlLines));
    return { ok: false, line: 1 + yamlLine, message: error.message.split('\n')[0]! };
  }
  const data: unknown = document.toJS();
  if (data !== null && data !== undefined && (typeof data !== 'object' || Array.isArray(data))) {
    return { ok: false, line: 2, message: 'front matter must be a mapping of keys to values' };
  }
  return { ok: true, data: (data ?? {}) as Record<string, unknown>, body: afterClosing, bodyLine: yamlLines + 3 };
}

/** A front-matter value as text (numbers and booleans too), or undefined. */
export function textField(data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key];
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}
