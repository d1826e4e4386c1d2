/**
 * A small arithmetic expression evaluator: a tokenizer and a recursive-descent parser.
 * Grammar: sum := product (('+'|'-') product)*; product := unary (('*'|'/'|'%') unary)*;
 * unary := ('-'|'+') unary | power; power := atom ('^' unary)?  (right-associative, so -2^2 = -4
 * and 2^-1 = 0.5); atom := number | name | name '(' args ')' | '(' sum ')'.
 */

const FUNCTIONS: Record<string, { arity: [number, number]; fn: (...args: number[]) => number }> = {
  sqrt: { arity: [1, 1], fn: Math.sqrt },
  abs: { arity: [1, 1], fn: Math.abs },
  sin: { arity: [1, 1], fn: Math.sin },
  cos: { arity: [1, 1], fn: Math.cos },
  tan: { arity: [1, 1], fn: Math.tan },
  asin: { arity: [1, 1], fn: Math.asin },
  acos: { arity: [1, 1], fn: Math.acos },
  atan: { arity: [1, 1], fn: Math.atan },
  ln: { arity: [1, 1], fn: Math.log },
  log: { arity: [1, 2], fn: (x, base) => (base === undefined ? Math.log10(x) : Math.log(x) / Math.log(base)) },
  log2: { arity: [1, 1], fn: Math.log2 },
  exp: { arity: [1, 1], fn: Math.exp },
  floor: { arity: [1, 1], fn: Math.floor },
  ceil: { arity: [1, 1], fn: Math.ceil },
  round: { arity: [1, 2], fn: (x, digits = 0) => Math.round(x * 10 ** digits) / 10 ** digits },
  min: { arity: [1, Infinity], fn: Math.min },
  max: { arity: [1, Infinity], fn: Math.max },
  pow: { arity: [2, 2], fn: Math.pow },
};

const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E, tau: 2 * Math.PI };

export class ExpressionError extends Error {}

type Token = { kind: 'number'; value: number; at: number } | { kind: 'name'; value: string; at: number } | { kind: 'op'; value: string; at: number };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (/\s/.test(ch)) {
      i++;
    } else if (/[0-9.]/.test(ch)) {
      const match = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(source.slice(i));
      if (!match) throw new ExpressionError(`Unexpected "${ch}" at position ${i + 1}.`);
      tokens.push({ kind: 'number', value: Number(match[0].replace(/_/g, '')), at: i });
      i += match[0].length;
    } else if (/[a-zA-Z_]/.test(ch)) {
      const match = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(source.slice(i))!;
      tokens.push({ kind: 'name', value: match[0].toLowerCase(), at: i });
      i += match[0].length;
    } else if ('+-*/%^(),×÷'.includes(ch)) {
      const value = ch === '×' ? '*' : ch === '÷' ? '/' : ch;
      if (value === '*' && source[i + 1] === '*') {
        tokens.push({ kind: 'op', value: '^', at: i });
        i += 2;
      } else {
        tokens.push({ kind: 'op', value, at: i });
        i++;
      }
    } else {
      throw new ExpressionError(`Unexpected character "${ch}" at position ${i + 1}.`);
    }
  }
  return tokens;
}

export function evaluate(source: string): number {
  const tokens = tokenize(source);
  if (tokens.length === 0) throw new ExpressionError('The expression is empty.');
  let pos = 0;
  const peek = () => tokens[pos];
  const isOp = (value: string) => {
    const token = tokens[pos];
    return token?.kind === 'op' && token.value === value;
  };
  const expect = (value: string) => {
    if (!isOp(value)) {
      const token = peek();
      throw new ExpressionError(token ? `Expected "${value}" at position ${token.at + 1}.` : `Expected "${value}" at the end.`);
    }
    pos++;
  };

  const sum = (): number => {
    let value = product();
    while (isOp('+') || isOp('-')) {
      const op = tokens[pos++]!.value;
      const right = product();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  };
  const product = (): number => {
    let value = unary();
    while (isOp('*') || isOp('/') || isOp('%')) {
      const op = tokens[pos++]!.value;
      const right = unary();
      if ((op === '/' || op === '%') && right === 0) throw new ExpressionError(op === '/' ? 'Division by zero.' : 'Modulo by zero.');
      value = op === '*' ? value * right : op === '/' ? value / right : value % right;
    }
    return value;
  };
  const unary = (): number => {
    if (isOp('-')) {
      pos++;
      return -unary();
    }
    if (isOp('+')) {
      pos++;
      return unary();
    }
    return power();
  };
  const power = (): number => {
    const base = atom();
    if (isOp('^')) {
      pos++;
      return base ** unary();
    }
    return base;
  };
  const atom = (): number => {
    const token = peek();
    if (!token) throw new ExpressionError('The expression ends too early.');
    if (token.kind === 'number') {
      pos++;
      return token.value;
    }
    if (token.kind === 'name') {
      pos++;
      if (isOp('(')) return call(token.value, token.at);
      const constant = Object.hasOwn(CONSTANTS, token.value) ? CONSTANTS[token.value] : undefined;
      if (constant === undefined) throw new ExpressionError(`Unknown name "${token.value}". Known: ${Object.keys(CONSTANTS).join(', ')}, and functions ${Object.keys(FUNCTIONS).join(', ')}.`);
      return constant;
    }
    if (token.value === '(') {
      pos++;
      const value = sum();
      expect(')');
      return value;
    }
    throw new ExpressionError(`Unexpected "${token.value}" at position ${token.at + 1}.`);
  };
  const call = (name: string, at: number): number => {
    // hasOwn: names like "constructor" must not reach Object.prototype.
    const fn = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
    if (!fn) throw new ExpressionError(`Unknown function "${name}" at position ${at + 1}. Known: ${Object.keys(FUNCTIONS).join(', ')}.`);
    expect('(');
    const args: number[] = [];
    if (!isOp(')')) {
      args.push(sum());
      while (isOp(',')) {
        pos++;
        args.push(sum());
      }
    }
    expect(')');
    const [least, most] = fn.arity;
    if (args.length < least || args.length > most) {
      throw new ExpressionError(`${name}() takes ${least === most ? least : `${least} to ${most === Infinity ? 'any number of' : most}`} argument(s), got ${args.length}.`);
    }
    return fn.fn(...args);
  };

  const value = sum();
  const rest = peek();
  if (rest) throw new ExpressionError(`Unexpected "${rest.value}" at position ${rest.at + 1}.`);
  if (Number.isNaN(value)) throw new ExpressionError('The result is not a number (for example the square root of a negative number).');
  if (!Number.isFinite(value)) throw new ExpressionError('The result is infinite (overflow).');
  return value;
}

/** Formats away binary noise (0.1 + 0.2 → 0.3) while keeping integers exact. */
export function formatNumber(value: number): string {
  // BigInt prints the double's exact integer value (String() would round 2^60 to ...847000).
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return BigInt(value).toString();
  return String(Number(value.toPrecision(12)));
}
