/**
 * Issue 27, class 5: a secret spelt in any mix of shell quoting and escapes, inside a command the
 * model sends as JSON (itself with `\u` escapes, any case, and `\/`), never survives redaction.
 * The readers that would recover it are real: bash runs each command, JSON.parse reads the
 * arguments; the session file is checked as written. Cases are drawn by fast-check; each batch
 * runs in one bash process (a process per case is too slow on a loaded CI machine).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../src/session/redact.js';
import { unescapedText, unescapeSpans } from '../src/session/unescape-spans.js';
import { createSession } from '../src/session/session-store.js';
import { tempLayouts } from './support/security-setup.js';

const setup = tempLayouts();
const SECRET_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+=';
const secretArb = fc.array(fc.constantFrom(...SECRET_CHARS), { minLength: 12, maxLength: 40 }).map((chars) => `sk-${chars.join('')}`);

const code = (char: string) => char.charCodeAt(0);
const hex = (char: string, width: number) => code(char).toString(16).padStart(width, '0');
const octal = (char: string) => code(char).toString(8).padStart(3, '0');
/** Ways `$'…'` and printf spell a character; echo -e reads \0NNN for octal instead. */
const ESCAPES = [(c: string) => c, (c: string) => `\\x${hex(c, 2)}`, (c: string) => `\\x${hex(c, 2).toUpperCase()}`, (c: string) => `\\${octal(c)}`, (c: string) => `\\u${hex(c, 4)}`, (c: string) => `\\u${hex(c, 4).toUpperCase()}`];
const ECHO_ESCAPES = [(c: string) => c, (c: string) => `\\x${hex(c, 2)}`, (c: string) => `\\0${octal(c)}`];

const spell = (text: string, ways: Array<(c: string) => string>, picks: number[]) => [...text].map((char, index) => ways[picks[index % picks.length]! % ways.length]!(char)).join('');

/** The secret as one shell word: cut into pieces, each plain, '…', "…" or $'…' with escapes. */
const shellWordArb = (secret: string) =>
  fc.array(fc.record({ length: fc.integer({ min: 1, max: 8 }), quoting: fc.nat(3), picks: fc.array(fc.nat(5), { minLength: 1, maxLength: 8 }) }), { minLength: 1, maxLength: 10 }).map((pieces) => {
    let word = '';
    let at = 0;
    pieces.forEach(({ length, quoting, picks }, index) => {
      const piece = secret.slice(at, index === pieces.length - 1 ? undefined : at + length);
      at += piece.length;
      if (piece === '') return;
      word += [piece, `'${piece}'`, `"${piece}"`, `$'${spell(piece, ESCAPES, picks)}'`][quoting];
    });
    return word;
  });

const picksArb = (secret: string) => fc.array(fc.nat(5), { minLength: secret.length, maxLength: secret.length });
const commandArb = (secret: string) =>
  fc.oneof(
    shellWordArb(secret).map((word) => `printf '%s' ${word}`),
    picksArb(secret).map((picks) => `printf '${spell(secret, ESCAPES.slice(0, 4), picks)}'`),
    picksArb(secret).map((picks) => `echo -ne '${spell(secret, ECHO_ESCAPES, picks)}'`),
  );

/** The tool call's JSON text, with any characters of the command written as \uXXXX (either case) and `/` as `\/`. */
const argumentsArb = (command: string) =>
  fc.array(fc.nat(3), { minLength: command.length, maxLength: command.length }).map((hows) => {
    const body = [...command].map((char, index) => {
      const how = hows[index]!;
      if (how === 1) return `\\u${hex(char, 4)}`;
      if (how === 2) return `\\u${hex(char, 4).toUpperCase()}`;
      if (how === 3 && char === '/') return '\\/';
      return JSON.stringify(char).slice(1, -1);
    });
    return `{"command":"${body.join('')}"}`;
  });

interface Case {
  secret: string;
  command: string;
  args: string;
}
const caseArb: fc.Arbitrary<Case> = secretArb.chain((secret) => commandArb(secret).chain((command) => argumentsArb(command).map((args) => ({ secret, command, args }))));

function draw(count: number): { seed: number; cases: Case[] } {
  const seed = Date.now() ^ (Math.random() * 0x7fffffff);
  return { seed, cases: fc.sample(caseArb, { numRuns: count, seed }) };
}

/** What bash prints for each command, each in its own `bash -c` (a broken quote in one cannot swallow the next). */
function bashOutputs(commands: string[]): string[] {
  const ran = spawnSync('bash', ['-c', 'for c in "$@"; do bash -c "$c" 2>/dev/null; printf "\\0"; done', 'batch', ...commands], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8' } });
  return ran.stdout.split('\0').slice(0, commands.length);
}

const commandOf = (args: string) => (JSON.parse(args) as { command: string }).command;

describe('redaction undoes every escaping before it looks', () => {
  it('the generated spellings are real: bash makes the secret of each command, JSON.parse the command of each arguments text', () => {
    const { seed, cases } = draw(150);
    const outputs = bashOutputs(cases.map((one) => one.command));
    cases.forEach(({ secret, command, args }, index) => {
      expect(commandOf(args), `seed ${seed}`).toBe(command);
      expect(outputs[index], `seed ${seed}: ${command}`).toBe(secret);
    });
  });

  it('after redaction the arguments are still JSON, and neither JSON.parse nor bash gets the secret back', () => {
    const { seed, cases } = draw(200);
    const redacted = cases.map(({ secret, args }) => {
      const redact = createRedactor([secret]);
      const out = redact(args);
      expect(out, `seed ${seed}: ${args}`).toContain('[redacted]');
      expect(redact(commandOf(args)), `seed ${seed}: ${args}`).toContain('[redacted]');
      return commandOf(out);
    });
    const outputs = bashOutputs([...redacted, ...cases.map(({ secret, args }) => createRedactor([secret])(commandOf(args)))]);
    outputs.forEach((output, index) => expect(output, `seed ${seed}: ${cases[index % cases.length]!.args}`).not.toContain(cases[index % cases.length]!.secret));
  });

  it('the session file holds no recoverable secret, whatever the spelling in the call arguments', () => {
    const { seed, cases } = draw(60);
    const { workspace, root } = setup();
    const session = createSession({ workspace, env: { XDG_DATA_HOME: root }, redact: createRedactor(cases.map((one) => one.secret)) });
    cases.forEach(({ args }, index) => session.writer.append({ type: 'assistant_message', message: { role: 'assistant', content: '', toolCalls: [{ id: `c${index}`, name: 'bash', arguments: args }] } } as never));
    session.close();
    const stored = readFileSync(session.path, 'utf8');
    const commands = stored
      .split('\n')
      .filter((line) => line.includes('toolCalls'))
      .flatMap((line) => (JSON.parse(line) as { message: { toolCalls: Array<{ arguments: string }> } }).message.toolCalls.map((call) => commandOf(call.arguments)));
    expect(commands).toHaveLength(cases.length);
    const recovered = bashOutputs(commands).join('\n');
    for (const { secret } of cases) {
      expect(stored, `seed ${seed}`).not.toContain(secret);
      expect(recovered, `seed ${seed}`).not.toContain(secret);
    }
  });

  it('the quick check and the span-keeping decoder read every text alike, and each span lies within the text', () => {
    const tricky = fc.array(fc.constantFrom('\\', "'", '"', '$', 'u', 'U', 'x', '{', '}', '0', '1', '7', '9', 'a', 'F', '\n', 's', 'k', '-'), { maxLength: 60 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(tricky, fc.boolean(), (raw, echoOctal) => {
        const spans = unescapeSpans(raw, echoOctal);
        expect(spans.text).toBe(unescapedText(raw, echoOctal).text);
        for (let i = 0; i < spans.text.length; i++) expect(0 <= spans.from[i]! && spans.from[i]! < spans.to[i]! && spans.to[i]! <= raw.length).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
