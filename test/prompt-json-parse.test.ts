import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readLenientJson } from '../src/providers/shared/lenient-json.js';
import { parseReply, type ParsedReply } from '../src/providers/prompt-json/parse-reply.js';

const call = (name: string, args: Record<string, unknown>): ParsedReply => ({ kind: 'calls', calls: [{ name, arguments: args }] });

describe('parseReply: what models actually write', () => {
  it.each([
    ['bare JSON', '{"tool": "calculator", "arguments": {"expression": "17 * 23"}}'],
    ['a json code fence', '```json\n{"tool": "calculator", "arguments": {"expression": "17 * 23"}}\n```'],
    ['text around it', 'Sure! I will compute it.\n{"tool": "calculator", "arguments": {"expression": "17 * 23"}}\nLet me know.'],
    ['a trailing comma', '{"tool": "calculator", "arguments": {"expression": "17 * 23",},}'],
    ['single quotes and bare keys', "{tool: 'calculator', arguments: {'expression': '17 * 23'}}"],
    ['"name" and "args" instead', '{"name": "calculator", "args": {"expression": "17 * 23"}}'],
    ['arguments as a JSON string', '{"tool": "calculator", "arguments": "{\\"expression\\": \\"17 * 23\\"}"}'],
  ])('reads a call from %s', (_label, text) => {
    expect(parseReply(text)).toEqual(call('calculator', { expression: '17 * 23' }));
  });

  it('reads an answer, raw newlines in the string included', () => {
    expect(parseReply('{"answer": "line one\nline two"}')).toEqual({ kind: 'answer', text: 'line one\nline two' });
    expect(parseReply("{'answer': 391}")).toEqual({ kind: 'answer', text: '391' });
  });

  it('a call without arguments gets {}', () => {
    expect(parseReply('{"tool": "current_time"}')).toEqual(call('current_time', {}));
  });

  it('takes the first valid object and ignores an imagined result after it', () => {
    const text = '{"tool": "current_time", "arguments": {}}\nResult: 12:00\n{"answer": "It is 12:00"}';
    expect(parseReply(text)).toEqual(call('current_time', {}));
  });

  it('skips a broken object and takes the next valid one', () => {
    expect(parseReply('{"tool": oops} then {"answer": "ok"}')).toEqual({ kind: 'answer', text: 'ok' });
  });

  it('an array of calls is several calls at once', () => {
    expect(parseReply('[{"tool": "a", "arguments": {"x": 1}}, {"tool": "b"}]')).toEqual({
      kind: 'calls',
      calls: [
        { name: 'a', arguments: { x: 1 } },
        { name: 'b', arguments: {} },
      ],
    });
  });

  it('a call beats an answer in the same object, as "Done!" with a call is a tool turn', () => {
    expect(parseReply('{"answer": "done", "tool": "a", "arguments": {}}')).toEqual(call('a', {}));
  });

  it('does not mistake an object nested inside another for the reply', () => {
    const parsed = parseReply('{"result": {"answer": "nested"}}');
    expect(parsed).toMatchObject({ kind: 'invalid', reason: 'bad_shape' });
    if (parsed.kind === 'invalid') expect(parsed.error).toContain('neither "tool" nor "answer"');
  });

  it.each([
    ['prose', 'The answer is 391.', 'no_json', 'no JSON object'],
    ['unclosed JSON', '{"tool": "calculator", "arguments": {"expression": "1', 'bad_json', 'not valid JSON'],
    ['a missing last brace (never repaired: it may be a cut-off reply)', '{"tool": "calculator", "arguments": {"expression": "1"}', 'bad_json', 'an object is not closed'],
    ['a bad word', '{"tool": calculator}', 'bad_json', 'unexpected word "calculator"'],
    ['an unknown shape', '{"action": "calculate"}', 'bad_shape', 'it has "action"'],
    ['non-object arguments', '{"tool": "calculator", "arguments": [1]}', 'bad_shape', 'must be a JSON object'],
    ['an empty tool name', '{"tool": "", "arguments": {}}', 'bad_shape', 'non-empty string'],
  ])('says what is wrong with %s', (_label, text, reason, words) => {
    const parsed = parseReply(text);
    expect(parsed).toMatchObject({ kind: 'invalid', reason });
    if (parsed.kind === 'invalid') expect(parsed.error).toContain(words);
  });

  it('keeps a "__proto__" key as a plain argument', () => {
    const parsed = parseReply('{"tool": "t", "arguments": {"__proto__": {"polluted": true}}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parsed.kind === 'calls' && Object.keys(parsed.calls[0]!.arguments)).toEqual(['__proto__']);
  });
});

describe('readLenientJson', () => {
  it('reads strict JSON exactly as JSON.parse does and reports where the value ended', () => {
    const text = '{"a": [1, -2.5e3, true, null, "x\\u0041"]} tail';
    expect(readLenientJson(text)).toEqual({ ok: true, value: JSON.parse(text.slice(0, -5)), end: text.length - 5 });
  });

  it('refuses nesting deeper than 64 levels without overflowing the stack', () => {
    expect(readLenientJson('['.repeat(100_000))).toMatchObject({ ok: false, error: 'nested too deeply' });
  });
});

// Properties: thousands of generated inputs. The parser must never throw, must always return one
// of the three kinds with a message for errors, and must find a valid reply hidden in noise.
const noise = fc.string({ unit: fc.constantFrom(...'ab {}[]",:\'\n`\\ 0123truefalsenul-.e'.split('')), maxLength: 60 });
const prose = fc.string({ maxLength: 40 }).map((text) => text.replace(/[{[]/g, '('));
const jsonValue = fc.jsonValue({ maxDepth: 3 });
const argsObject = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), jsonValue, { maxKeys: 4 });
const toolName = fc.stringMatching(/^[a-z_][a-z0-9_]{0,15}$/);

describe('parseReply properties', () => {
  it('never throws on arbitrary text and always gives a call, an answer, or an error message', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), noise, fc.string({ unit: 'binary', maxLength: 100 })), (text) => {
        const parsed = parseReply(text);
        if (parsed.kind === 'invalid') return parsed.error.length > 0;
        if (parsed.kind === 'answer') return typeof parsed.text === 'string';
        return parsed.calls.length > 0 && parsed.calls.every((c) => c.name.length > 0 && typeof c.arguments === 'object' && !Array.isArray(c.arguments));
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws on mangled valid replies (cut, commas doubled, quotes swapped)', () => {
    const mangled = fc
      .record({ name: toolName, args: argsObject, cut: fc.nat(), mode: fc.constantFrom('cut', 'comma', 'quotes', 'brace') })
      .map(({ name, args, cut, mode }) => {
        const text = JSON.stringify({ tool: name, arguments: args });
        if (mode === 'cut') return text.slice(0, cut % (text.length + 1));
        if (mode === 'comma') return text.replace(/,/g, ',,');
        if (mode === 'quotes') return text.replace(/"/g, "'");
        return text.replace(/}/, '');
      });
    fc.assert(
      fc.property(mangled, (text) => {
        const parsed = parseReply(text);
        return parsed.kind !== 'invalid' || parsed.error.length > 0;
      }),
      { numRuns: 3000 },
    );
  });

  it('finds a generated call embedded in prose, in any JSON formatting, fenced or not, whatever junk follows it', () => {
    fc.assert(
      fc.property(toolName, argsObject, prose, fc.oneof(prose, noise), fc.boolean(), fc.constantFrom(0, 2), (name, args, before, after, fenced, indent) => {
        const json = JSON.stringify({ tool: name, arguments: args }, null, indent);
        const text = `${before}\n${fenced ? '```json\n' : ''}${json}${fenced ? '\n```' : ''}\n${after}`;
        // Compared with what JSON itself round-trips (-0 comes back as 0).
        expect(parseReply(text)).toEqual({ kind: 'calls', calls: [{ name, arguments: JSON.parse(JSON.stringify(args)) }] });
      }),
      { numRuns: 2000 },
    );
  });

  it('finds a generated answer after noise that holds no valid reply', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), noise, (answer, junk) => {
        const parsed = parseReply(`${junk.replace(/[{[]/g, '')}\n{"answer": ${JSON.stringify(answer)}}`);
        expect(parsed).toEqual({ kind: 'answer', text: answer });
      }),
      { numRuns: 2000 },
    );
  });
});
