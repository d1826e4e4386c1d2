/**
 * A JSON text read for editing in place: where each object's members start and end, so that one
 * member can be added, replaced or removed while every other byte of the file (its keys, order,
 * indentation, line ends) stays as the user wrote it.
 */

export interface JsonMember {
  key: string;
  /** Offset of the key's opening quote. */
  keyStart: number;
  value: JsonNode;
}

export type JsonNode = { kind: 'object'; start: number; end: number; members: JsonMember[] } | { kind: 'other'; start: number; end: number };

/** Text that is not JSON, with where (1-based line and column) it stops being JSON. */
export class JsonTextError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} at line ${line}, column ${column}`);
  }
}

const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

/** Parses strict JSON (what JSON.parse takes), keeping the offsets of every object's members. */
export function scanJson(text: string): JsonNode {
  let at = 0;
  const fail = (reason: string): never => {
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    throw new JsonTextError(at >= text.length ? 'unexpected end of the file' : reason, line, at - before.lastIndexOf('\n'));
  };
  const skipSpace = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++;
  };
  const expect = (char: string) => {
    if (text[at] !== char) fail(`expected ${JSON.stringify(char)}, found ${JSON.stringify(text[at])}`);
    at++;
  };
  const string = (): string => {
    const start = at;
    expect('"');
    while (text[at] !== '"') {
      if (at >= text.length || text.charCodeAt(at) < 0x20) fail('unterminated string');
      at += text[at] === '\\' ? 2 : 1;
    }
    at++;
    try {
      return JSON.parse(text.slice(start, at)) as string;
    } catch {
      at = start;
      return fail('invalid escape in a string');
    }
  };
  const scalar = () => {
    SCALAR.lastIndex = at;
    const match = SCALAR.exec(text);
    if (!match) fail(`unexpected ${JSON.stringify(text[at])}`);
    at += match![0].length;
  };
  const value = (depth: number): JsonNode => {
    if (depth > 512) fail('nested too deeply');
    skipSpace();
    const start = at;
    const char = text[at];
    if (char === '{') {
      at++;
      const members: JsonMember[] = [];
      skipSpace();
      if (text[at] !== '}') {
        for (;;) {
          skipSpace();
          const keyStart = at;
          const key = string();
          skipSpace();
          expect(':');
          members.push({ key, keyStart, value: value(depth + 1) });
          skipSpace();
          if (text[at] === '}') break;
          expect(',');
        }
      }
      at++;
      return { kind: 'object', start, end: at, members };
    }
    if (char === '[') {
      at++;
      skipSpace();
      if (text[at] !== ']') {
        for (;;) {
          value(depth + 1);
          skipSpace();
          if (text[at] === ']') break;
          expect(',');
        }
      }
      at++;
    } else if (char === '"') string();
    else scalar();
    return { kind: 'other', start, end: at };
  };
  const root = value(0);
  skipSpace();
  if (at < text.length) fail(`unexpected ${JSON.stringify(text[at])} after the end of the JSON`);
  return root;
}

/** One level of indentation and the line end the file uses (two spaces and \n when it shows none). */
export function textStyle(text: string): { indent: string; newline: string } {
  const indent = /\n([ \t]+)["}\]]/.exec(text)?.[1] ?? '  ';
  return { indent: indent.includes('\t') ? '\t' : indent, newline: text.includes('\r\n') ? '\r\n' : '\n' };
}

const spansLines = (text: string, node: { start: number; end: number }) => text.slice(node.start, node.end).includes('\n');

/**
 * The text with `key` set to `value` in the object `node` (at nesting `depth`, 0 for the root):
 * its value replaced if the key is there, else a member added after the last one, written in the
 * style its siblings use (one line each, or indented).
 */
export function setMember(text: string, node: JsonNode & { kind: 'object' }, depth: number, key: string, value: unknown): string {
  const style = textStyle(text);
  const existing = node.members.find((member) => member.key === key);
  const siblings = node.members.filter((member) => member !== existing);
  const objects = siblings.filter((member) => member.value.kind === 'object');
  const oneLine = siblings.length > 0 && (!spansLines(text, node) || (objects.length > 0 && objects.every((member) => !spansLines(text, member.value))));
  const valueText = oneLine ? JSON.stringify(value) : indentJson(value, style, depth + 1);
  if (existing) return splice(text, existing.value.start, existing.value.end, valueText);
  const member = `${JSON.stringify(key)}: ${valueText}`;
  const last = node.members.at(-1);
  if (!last) {
    const inner = `${style.newline}${style.indent.repeat(depth + 1)}${member}${style.newline}${style.indent.repeat(depth)}`;
    return splice(text, node.start + 1, node.end - 1, inner);
  }
  const lead = text.slice(node.start + 1, node.members[0]!.keyStart);
  const gap = lead.includes('\n') ? `${style.newline}${lead.slice(lead.lastIndexOf('\n') + 1)}` : ' ';
  return splice(text, last.value.end, last.value.end, `,${gap}${member}`);
}

/** The text without the member `key` of the object `node` (with its comma and the space before the next member). */
export function removeMember(text: string, node: JsonNode & { kind: 'object' }, key: string): string {
  const index = node.members.findIndex((member) => member.key === key);
  if (index < 0) return text;
  const members = node.members;
  if (members.length === 1) return splice(text, node.start + 1, node.end - 1, '');
  if (index < members.length - 1) return splice(text, members[index]!.keyStart, members[index + 1]!.keyStart, '');
  return splice(text, members[index - 1]!.value.end, members[index]!.value.end, '');
}

/** The member `key` of an object node, if the node is an object and has it. */
export function memberOf(node: JsonNode, key: string): JsonMember | undefined {
  return node.kind === 'object' ? node.members.find((member) => member.key === key) : undefined;
}

function indentJson(value: unknown, style: { indent: string; newline: string }, depth: number): string {
  return JSON.stringify(value, null, style.indent).split('\n').join(`${style.newline}${style.indent.repeat(depth)}`);
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}
