/**
 * Where strict JSON text first goes wrong, as an offset, and why; undefined
 * when the text is valid JSON. JSON.parse on Node 20 gives a position for some errors only ("in
 * JSON at position 19", but not for "Unexpected token 'x'"), so a config file's error is located
 * by this scan instead, the same way for every mistake.
 */
export function jsonErrorOffset(text: string): { offset: number; reason: string } | undefined {
  let i = 0;
  const fail = (reason: string): never => {
    throw new Located(i, reason);
  };
  const found = () => (i >= text.length ? 'the text ends here' : text[i] === '/' ? 'found "/": JSON allows no comments' : `found ${JSON.stringify(text[i])}`);
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = () => {
    i++;
    for (;;) {
      if (i >= text.length) fail('a string is not closed: no closing "');
      const ch = text.charCodeAt(i);
      if (ch === 0x22) return void i++;
      if (ch < 0x20) fail('a line break or control character inside a string: write \\n or \\t');
      if (ch === 0x5c) {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('\\u needs four hex digits');
          i += 5;
        } else if (text[i] !== undefined && '"\\/bfnrt'.includes(text[i]!)) i++;
        else fail('an unknown escape: JSON has \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX');
      } else i++;
    }
  };
  const value = (depth: number): void => {
    space();
    const ch = text[i];
    if (ch === '{' || ch === '[') return container(ch, depth);
    if (ch === '"') return string();
    const number = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (number && number[0] !== '' && number[0] !== '-') return void (i += number[0].length);
    for (const word of ['true', 'false', 'null']) if (text.startsWith(word, i)) return void (i += word.length);
    fail(`expected a value (a "string", a number, true, false, null, {…} or […]), ${found()}`);
  };
  const container = (open: string, depth: number): void => {
    if (depth >= MAX_SCAN_DEPTH) fail(`at most ${MAX_SCAN_DEPTH} levels of nesting`);
    const close = open === '{' ? '}' : ']';
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      if (open === '{') {
        space();
        if (text[i] !== '"') fail(`expected a "key" in double quotes, ${found()}`);
        string();
        space();
        if (text[i] !== ':') fail(`expected ":" after the key, ${found()}`);
        i++;
      }
      value(depth + 1);
      space();
      if (text[i] === ',') {
        i++;
        space();
        if (text[i] === close) fail(`a comma before "${close}": JSON allows no trailing comma`);
        continue;
      }
      if (text[i] === close) return void i++;
      fail(`expected "," or "${close}", ${found()}`);
    }
  };
  try {
    value(0);
    space();
    if (i < text.length) fail(`more text after the value: ${found()}`);
    return undefined;
  } catch (error) {
    if (error instanceof Located) return { offset: error.offset, reason: error.reason };
    throw error;
  }
}

/** Deeper text is reported rather than scanned (the scan recurses). */
const MAX_SCAN_DEPTH = 1000;

class Located {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}
