import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import fc from 'fast-check';
import { capText } from '../src/tools/cap-output.js';
import { outputIdFor } from '../src/tools/output-store.js';
import { defineTool } from '../src/tools/define-tool.js';
import type { ToolContext } from '../src/contracts/tool.js';
import { errorText } from '../src/contracts/error-text.js';
import { parseArguments, ToolRegistry } from '../src/tools/registry.js';
import type { Authorize } from '../src/contracts/tool.js';

const call = (name: string, args: string | object = {}, id = 'call_1') => ({
  id,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});

function addTool() {
  const calls: { args: unknown; context: ToolContext }[] = [];
  const tool = defineTool({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: z.object({ a: z.number(), b: z.number(), note: z.string().optional() }),
    readOnly: true,
    async execute(args, context) {
      calls.push({ args, context });
      return String(args.a + args.b);
    },
  });
  return { tool, calls };
}

function writeTool() {
  const calls: unknown[] = [];
  const tool = defineTool({
    name: 'write_file',
    description: 'Writes a file.',
    parameters: z.object({ path: z.string() }),
    async execute(args) {
      calls.push(args);
      return `wrote ${args.path}`;
    },
  });
  return { tool, calls };
}

/** A tool that never resolves; records the signal it was given. */
function hangingTool(timeoutMs?: number) {
  let started!: () => void;
  const seen: { signal?: AbortSignal; startedPromise: Promise<void> } = { startedPromise: new Promise<void>((resolve) => (started = resolve)) };
  const tool = defineTool({
    name: 'hang',
    description: 'Never finishes.',
    parameters: z.object({}),
    readOnly: true,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    execute(_args, context) {
      seen.signal = context.signal;
      started();
      return new Promise<never>(() => {});
    },
  });
  return { tool, seen };
}

describe('defineTool', () => {
  it('derives a JSON Schema without $schema, with properties and required', () => {
    const { tool } = addTool();
    expect(tool.schema.name).toBe('add');
    expect(tool.schema.description).toBe('Adds two numbers.');
    const parameters = tool.schema.parameters;
    expect(parameters).not.toHaveProperty('$schema');
    expect(parameters.type).toBe('object');
    expect(Object.keys(parameters.properties as object).sort()).toEqual(['a', 'b', 'note']);
    expect(parameters.required).toEqual(['a', 'b']);
    expect((parameters.properties as Record<string, unknown>).a).toMatchObject({ type: 'number' });
  });

  it('keeps .describe() text in the schema', () => {
    const tool = defineTool({
      name: 'greet',
      description: 'Greets.',
      parameters: z.object({ who: z.string().describe('the person to greet') }),
      execute: async () => '',
    });
    expect((tool.schema.parameters.properties as Record<string, { description?: string }>).who!.description).toBe('the person to greet');
  });

  it('defaults readOnly to false and needsApproval to !readOnly', () => {
    expect(writeTool().tool).toMatchObject({ readOnly: false, needsApproval: true, timeoutMs: undefined });
    expect(addTool().tool).toMatchObject({ readOnly: true, needsApproval: false });
    const explicit = defineTool({ name: 'x', description: 'x', parameters: z.object({}), readOnly: true, needsApproval: true, timeoutMs: 7, execute: async () => '' });
    expect(explicit).toMatchObject({ readOnly: true, needsApproval: true, timeoutMs: 7 });
  });

  it.each(['', 'has space', 'dot.name', 'slash/name', 'émoji', 'a'.repeat(65), 'semi;colon'])('rejects the invalid name %j', (name) => {
    expect(() => defineTool({ name, description: 'd', parameters: z.object({}), execute: async () => '' })).toThrow(/must match/);
  });

  it.each(['a', 'read_file', 'run-shell', 'Tool42', 'a'.repeat(64)])('accepts the valid name %j', (name) => {
    expect(defineTool({ name, description: 'd', parameters: z.object({}), execute: async () => '' }).name).toBe(name);
  });
});

describe('ToolRegistry basics', () => {
  it('lists names, tools and schemas in registration order', () => {
    const add = addTool().tool;
    const write = writeTool().tool;
    const registry = new ToolRegistry([add, write]);
    expect(registry.names()).toEqual(['add', 'write_file']);
    expect(registry.list()).toEqual([add, write]);
    expect(registry.get('add')).toBe(add);
    expect(registry.get('nope')).toBeUndefined();
    expect(registry.schemas().map((schema) => schema.name)).toEqual(['add', 'write_file']);
  });

  it('schemas() returns the same schema objects on every call (derived once)', () => {
    const add = addTool().tool;
    const registry = new ToolRegistry([add]);
    const first = registry.schemas();
    const second = registry.schemas();
    expect(second[0]).toBe(first[0]);
    expect(second[0]!.parameters).toBe(first[0]!.parameters);
    expect(first[0]).toBe(add.schema);
    expect(first[0]!.parameters).not.toHaveProperty('$schema');
    expect(first[0]!.parameters).toHaveProperty('properties');
    expect(first[0]!.parameters).toHaveProperty('required');
  });

  it('throws on a duplicate registration, from register and from the constructor', () => {
    const registry = new ToolRegistry([addTool().tool]);
    expect(() => registry.register(addTool().tool)).toThrow('A tool named "add" is already registered.');
    expect(registry.names()).toEqual(['add']);
    expect(() => new ToolRegistry([addTool().tool, addTool().tool])).toThrow(/already registered/);
  });

  it('register is chainable', () => {
    const registry = new ToolRegistry();
    expect(registry.register(addTool().tool).register(writeTool().tool)).toBe(registry);
    expect(registry.names()).toEqual(['add', 'write_file']);
  });
});

describe('ToolRegistry.invoke', () => {
  it('runs a tool with the validated arguments and the workspace', async () => {
    const { tool, calls } = addTool();
    const registry = new ToolRegistry([tool]);
    const result = await registry.invoke(call('add', { a: 2, b: 3 }), { workspace: '/tmp/ws' });
    expect(result).toEqual({ content: '5', isError: false, status: 'ok', args: { a: 2, b: 3 }, durationMs: expect.any(Number) });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.context.workspace).toBe('/tmp/ws');
    expect(calls[0]!.context.signal.aborted).toBe(false);
  });

  it('defaults the workspace to the current directory', async () => {
    const { tool, calls } = addTool();
    await new ToolRegistry([tool]).invoke(call('add', { a: 1, b: 1 }));
    expect(calls[0]!.context.workspace).toBe(process.cwd());
  });

  it('strips unknown keys as zod does and passes the parsed data', async () => {
    const { tool, calls } = addTool();
    const result = await new ToolRegistry([tool]).invoke(call('add', { a: 1, b: 2, extra: true }));
    expect(result.status).toBe('ok');
    expect(calls[0]!.args).toEqual({ a: 1, b: 2 });
  });

  it('reports an unknown tool and lists the available ones', async () => {
    const registry = new ToolRegistry([addTool().tool, writeTool().tool]);
    const result = await registry.invoke(call('delete_everything'));
    expect(result).toEqual({
      content: 'Unknown tool "delete_everything". Available tools: add, write_file.',
      isError: true,
      status: 'error',
    });
    const empty = await new ToolRegistry().invoke(call('x'));
    expect(empty.content).toBe('Unknown tool "x". Available tools: (none).');
  });

  it.each([
    ['{not json', /not valid JSON/],
    ['{"a": 1,', /not valid JSON/],
    ['[1, 2]', /expected a JSON object, got an array/],
    ['null', /expected a JSON object, got null/],
    ['42', /expected a JSON object, got number/],
    ['"text"', /expected a JSON object, got string/],
    ['true', /expected a JSON object, got boolean/],
  ])('rejects the arguments %j without calling the tool', async (raw, message) => {
    const { tool, calls } = addTool();
    const result = await new ToolRegistry([tool]).invoke(call('add', raw));
    expect(result.status).toBe('error');
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Arguments for add are not valid JSON/);
    expect(result.content).toMatch(message);
    expect(result.content).toContain("Send a JSON object matching the tool's schema.");
    expect(result.args).toBeUndefined();
    expect(calls).toHaveLength(0);
  });

  it('names the offending field on a schema violation and shows the schema', async () => {
    const { tool, calls } = addTool();
    const registry = new ToolRegistry([tool]);
    const wrongType = await registry.invoke(call('add', { a: 1, b: 'two' }));
    expect(wrongType.status).toBe('error');
    expect(wrongType.content).toMatch(/^Invalid arguments for add: b: /);
    expect(wrongType.content).toContain(`Expected schema: ${JSON.stringify(tool.schema.parameters)}`);
    const missing = await registry.invoke(call('add', { b: 2 }));
    expect(missing.content).toMatch(/^Invalid arguments for add: a: /);
    const both = await registry.invoke(call('add', { note: 5 }));
    expect(both.content).toMatch(/a: .*; b: .*; note: /);
    expect(calls).toHaveLength(0);
  });

  it('names nested fields by their path', async () => {
    const tool = defineTool({
      name: 'nested',
      description: 'n',
      parameters: z.object({ options: z.object({ depth: z.number().int() }) }),
      readOnly: true,
      execute: async () => 'ok',
    });
    const result = await new ToolRegistry([tool]).invoke(call('nested', { options: { depth: 1.5 } }));
    expect(result.status).toBe('error');
    expect(result.content).toContain('options.depth: ');
  });

  it('treats empty-string arguments as {}', async () => {
    const tool = defineTool({
      name: 'noargs',
      description: 'n',
      parameters: z.object({ verbose: z.boolean().optional() }),
      readOnly: true,
      execute: async (args) => `got ${JSON.stringify(args)}`,
    });
    const registry = new ToolRegistry([tool]);
    for (const raw of ['', '   ', '\n']) {
      const result = await registry.invoke(call('noargs', raw));
      expect(result).toEqual({ content: 'got {}', isError: false, status: 'ok', args: {}, durationMs: expect.any(Number) });
    }
    // But empty arguments still fail a schema with required fields.
    const add = await new ToolRegistry([addTool().tool]).invoke(call('add', ''));
    expect(add.status).toBe('error');
    expect(add.content).toMatch(/^Invalid arguments for add: a: /);
  });

  it('turns a thrown error into an error result with its message', async () => {
    const tool = defineTool({
      name: 'boom',
      description: 'b',
      parameters: z.object({}),
      readOnly: true,
      execute: async () => {
        throw new Error('disk on fire');
      },
    });
    const result = await new ToolRegistry([tool]).invoke(call('boom'));
    expect(result).toEqual({ content: 'boom failed: disk on fire', isError: true, status: 'error', args: {}, durationMs: expect.any(Number) });
  });

  it('turns a synchronous throw and a thrown non-Error into error results', async () => {
    const sync = defineTool({
      name: 'sync_boom',
      description: 'b',
      parameters: z.object({}),
      readOnly: true,
      execute: (() => {
        throw new TypeError('bad sync');
      }) as never,
    });
    const str = defineTool({
      name: 'str_boom',
      description: 'b',
      parameters: z.object({}),
      readOnly: true,
      execute: async () => {
        throw 'just a string';
      },
    });
    const registry = new ToolRegistry([sync, str]);
    expect(await registry.invoke(call('sync_boom'))).toMatchObject({ status: 'error', content: 'sync_boom failed: bad sync' });
    expect(await registry.invoke(call('str_boom'))).toMatchObject({ status: 'error', content: 'str_boom failed: just a string' });
  });

  it('times out a tool that never resolves (tool timeoutMs 50) and aborts its signal', async () => {
    const { tool, seen } = hangingTool(50);
    const registry = new ToolRegistry([tool]);
    const started = Date.now();
    const result = await registry.invoke(call('hang'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(result).toEqual({ content: 'hang timed out after 50 ms and was stopped.', isError: true, status: 'error', args: {}, durationMs: expect.any(Number) });
    expect(seen.signal?.aborted).toBe(true);
    expect(seen.signal?.reason).toBeInstanceOf(Error);
    expect((seen.signal?.reason as Error).message).toBe('timeout');
  });

  it('uses the registry default timeout when the tool has none', async () => {
    const { tool, seen } = hangingTool();
    const result = await new ToolRegistry([tool], { timeoutMs: 50 }).invoke(call('hang'));
    expect(result.status).toBe('error');
    expect(result.content).toBe('hang timed out after 50 ms and was stopped.');
    expect(seen.signal?.aborted).toBe(true);
  });

  it('the tool timeout wins over the registry default', async () => {
    const { tool } = hangingTool(50);
    const result = await new ToolRegistry([tool], { timeoutMs: 60_000 }).invoke(call('hang'));
    expect(result.content).toBe('hang timed out after 50 ms and was stopped.');
  });

  it('is cancelled by the outer signal, which also aborts the tool signal', async () => {
    const { tool, seen } = hangingTool();
    const controller = new AbortController();
    const pending = new ToolRegistry([tool]).invoke(call('hang'), { signal: controller.signal });
    await seen.startedPromise;
    expect(seen.signal?.aborted).toBe(false);
    controller.abort(new Error('user pressed Esc'));
    const result = await pending;
    expect(result).toEqual({ content: 'hang was cancelled by the user.', isError: true, status: 'error', args: {}, durationMs: expect.any(Number) });
    expect(seen.signal?.aborted).toBe(true);
    expect((seen.signal?.reason as Error).message).toBe('user pressed Esc');
  });

  it('does not run the tool when the outer signal is already aborted', async () => {
    const { tool, calls } = addTool();
    const controller = new AbortController();
    controller.abort();
    const result = await new ToolRegistry([tool]).invoke(call('add', { a: 1, b: 2 }), { signal: controller.signal });
    expect(result.status).toBe('error');
    expect(result.content).toBe('add was cancelled by the user.');
    expect(calls).toHaveLength(0);
  });

  it('a tool that stops on abort by rejecting still reports cancelled', async () => {
    const tool = defineTool({
      name: 'polite',
      description: 'p',
      parameters: z.object({}),
      readOnly: true,
      execute: (_args, { signal }) =>
        new Promise<string>((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true })),
    });
    const controller = new AbortController();
    const pending = new ToolRegistry([tool]).invoke(call('polite'), { signal: controller.signal });
    controller.abort();
    const result = await pending;
    expect(result.status).toBe('error');
    expect(result.content).toMatch(/cancelled/);
  });

  it('detaches from the outer signal after the call', async () => {
    const { tool, calls } = addTool();
    const controller = new AbortController();
    const registry = new ToolRegistry([tool]);
    await registry.invoke(call('add', { a: 1, b: 2 }), { signal: controller.signal });
    controller.abort();
    // The signal handed to the finished call is not aborted later by the outer one.
    expect(calls[0]!.context.signal.aborted).toBe(false);
  });

  it('passes {output, isError: true} through as status error', async () => {
    const tool = defineTool({
      name: 'soft_fail',
      description: 's',
      parameters: z.object({}),
      readOnly: true,
      execute: async () => ({ output: 'file not found: a.txt', isError: true }),
    });
    const plain = defineTool({
      name: 'soft_ok',
      description: 's',
      parameters: z.object({}),
      readOnly: true,
      execute: async () => ({ output: 'fine' }),
    });
    const registry = new ToolRegistry([tool, plain]);
    expect(await registry.invoke(call('soft_fail'))).toEqual({ content: 'file not found: a.txt', isError: true, status: 'error', args: {}, durationMs: expect.any(Number) });
    expect(await registry.invoke(call('soft_ok'))).toEqual({ content: 'fine', isError: false, status: 'ok', args: {}, durationMs: expect.any(Number) });
  });

  it('caps long output to maxOutputChars, keeping head and tail, and stores the whole text under the id its note names', async () => {
    const long = 'H'.repeat(500) + 'M'.repeat(1_000) + 'T'.repeat(500);
    const tool = defineTool({
      name: 'chatty',
      description: 'c',
      parameters: z.object({}),
      readOnly: true,
      execute: async () => ({ output: long, isError: true }),
    });
    const registry = new ToolRegistry([tool], { maxOutputChars: 100 });
    const result = await registry.invoke(call('chatty'));
    expect(result.status).toBe('error');
    const id = outputIdFor(long);
    expect(result.content).toBe(`${'H'.repeat(60)}\n[… 1,900 chars (1 line) omitted of 2,000; full output saved as output id ${id}; call read_output to see more]\n${'T'.repeat(40)}`);
    expect(await registry.outputs.get(id)).toBe(long);
    const short = await new ToolRegistry([tool], { maxOutputChars: 2_000 }).invoke(call('chatty'));
    expect(short.content).toBe(long);
  });

  it('caps at 30,000 characters by default; a store that cannot save is said in the result', async () => {
    const tool = defineTool({ name: 'huge', description: 'h', parameters: z.object({}), readOnly: true, execute: async () => 'x'.repeat(100_000) });
    const result = await new ToolRegistry([tool]).invoke(call('huge'));
    expect(result.content).toContain('[… 70,000 chars (1 line) omitted of 100,000; full output saved as output id');
    expect(result.content.replace(/\n\[….*\]\n/, '')).toBe('x'.repeat(30_000));
    const failing = { put: async () => Promise.reject(new Error('disk full')), get: async () => undefined };
    const unsaved = await new ToolRegistry([tool], { outputs: failing }).invoke(call('huge'));
    expect(unsaved.status).toBe('ok');
    expect(unsaved.content).toMatch(/\[the full output could not be saved \(disk full\): read_output will not find out_[0-9a-f]{12}\]$/);
  });
});

describe('ToolRegistry.invoke with authorize', () => {
  it('denies: status denied, reason shown, execute not called', async () => {
    const { tool, calls } = writeTool();
    const requests: Parameters<Authorize>[0][] = [];
    const authorize: Authorize = async (request) => {
      requests.push(request);
      return { allowed: false, reason: 'the user said no' };
    };
    const controller = new AbortController();
    const theCall = call('write_file', { path: 'a.txt' });
    const result = await new ToolRegistry([tool]).invoke(theCall, { authorize, signal: controller.signal });
    expect(result).toEqual({ content: 'Denied: the user said no', isError: true, status: 'denied', args: { path: 'a.txt' } });
    expect(calls).toHaveLength(0);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.tool).toBe(tool);
    expect(requests[0]!.args).toEqual({ path: 'a.txt' });
    expect(requests[0]!.call).toBe(theCall);
    expect(requests[0]!.signal).toBe(controller.signal);
  });

  it('allows: the tool runs', async () => {
    const { tool, calls } = writeTool();
    let asked = 0;
    const authorize: Authorize = async () => {
      asked++;
      return { allowed: true };
    };
    const result = await new ToolRegistry([tool]).invoke(call('write_file', { path: 'b.txt' }), { authorize });
    expect(result).toEqual({ content: 'wrote b.txt', isError: false, status: 'ok', args: { path: 'b.txt' }, durationMs: expect.any(Number) });
    expect(asked).toBe(1);
    expect(calls).toEqual([{ path: 'b.txt' }]);
  });

  it('is not asked for read-only tools', async () => {
    const { tool, calls } = addTool();
    let asked = 0;
    const authorize: Authorize = async () => {
      asked++;
      return { allowed: false, reason: 'never' };
    };
    const result = await new ToolRegistry([tool]).invoke(call('add', { a: 1, b: 2 }), { authorize });
    expect(result.status).toBe('ok');
    expect(asked).toBe(0);
    expect(calls).toHaveLength(1);
  });

  it('is asked for a read-only tool that explicitly needs approval', async () => {
    const tool = defineTool({ name: 'peek', description: 'p', parameters: z.object({}), readOnly: true, needsApproval: true, execute: async () => 'peeked' });
    let asked = 0;
    const result = await new ToolRegistry([tool]).invoke(call('peek'), {
      authorize: async () => {
        asked++;
        return { allowed: false, reason: 'no peeking' };
      },
    });
    expect(asked).toBe(1);
    expect(result.status).toBe('denied');
  });

  it('is not asked when the arguments are invalid', async () => {
    const { tool, calls } = writeTool();
    let asked = 0;
    const result = await new ToolRegistry([tool]).invoke(call('write_file', { path: 3 }), {
      authorize: async () => {
        asked++;
        return { allowed: true };
      },
    });
    expect(result.status).toBe('error');
    expect(asked).toBe(0);
    expect(calls).toHaveLength(0);
  });

  it('without an authorize hook, tools that need approval run', async () => {
    const { tool, calls } = writeTool();
    const result = await new ToolRegistry([tool]).invoke(call('write_file', { path: 'c.txt' }));
    expect(result.status).toBe('ok');
    expect(calls).toHaveLength(1);
  });
});

describe('capText', () => {
  const NOTE = /\n\[… ([\d,]+) chars \(([\d,]+) lines?\) omitted of ([\d,]+); full output saved as output id (out_[0-9a-f]{12}); call read_output to see more\]\n/;
  const count = (text: string) => Number(text.replaceAll(',', ''));

  it('returns text at or under the limit unchanged, storing nothing', () => {
    expect(capText('', 10)).toEqual({ text: '' });
    expect(capText('exactly10!', 10)).toEqual({ text: 'exactly10!' });
  });

  it('keeps 60% head and 40% tail, counts the omitted lines, and stores the whole text', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${String(i).padStart(3, '0')}`);
    const text = lines.join('\n');
    const capped = capText(text, 90);
    expect(capped.stored).toEqual({ id: outputIdFor(text), text });
    expect(capped.text.startsWith(text.slice(0, 54))).toBe(true);
    expect(capped.text.endsWith(text.slice(text.length - 36))).toBe(true);
    const omittedLines = text.slice(54, text.length - 36).split('\n').length;
    expect(capped.text).toContain(`[… ${text.length - 90} chars (${omittedLines} lines) omitted of ${text.length}; full output saved as output id ${outputIdFor(text)}`);
  });

  it("a note that is not ours (a log, another agent's capped result) is content: the text is cut fresh and stored whole", async () => {
    const foreign = capText('x'.repeat(500), 100).text;
    const quoted = `log line\n${foreign}\nmore log ${'y'.repeat(300)}`;
    const cut = capText(quoted, 100);
    expect(cut.stored).toEqual({ id: outputIdFor(quoted), text: quoted });
    const tool = defineTool({ name: 'relay', description: 'r', parameters: z.object({}), readOnly: true, execute: async () => foreign });
    const registry = new ToolRegistry([tool], { maxOutputChars: 50 });
    const result = await registry.invoke(call('relay'));
    expect(result.content).toContain(`full output saved as output id ${outputIdFor(foreign)}`);
    expect(await registry.outputs.get(outputIdFor(foreign))).toBe(foreign);
  });

  it('cut again by a smaller cap, keeps the id and whole length and says exactly what the model no longer sees', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '\n'), minLength: 1, maxLength: 400 }), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 300 }), (text, first, second) => {
        const once = capText(text, first);
        const twice = capText(once.text, second);
        // Stored once, at the first cut: a later cut has nothing new to store.
        if (once.stored) expect(twice.stored).toBeUndefined();
        const note = NOTE.exec(twice.text);
        if (!note) {
          expect(twice.text).toBe(text);
          return;
        }
        const head = twice.text.slice(0, note.index);
        const tail = twice.text.slice(note.index + note[0].length);
        expect(head.length + tail.length).toBeLessThanOrEqual(Math.min(first, second));
        expect(note[4]).toBe(outputIdFor(text));
        expect(count(note[3]!)).toBe(text.length);
        expect(text.startsWith(head) && text.endsWith(tail)).toBe(true);
        const omitted = text.slice(head.length, text.length - tail.length);
        expect(count(note[1]!)).toBe(omitted.length);
        expect(count(note[2]!)).toBe(omitted.split('\n').length);
      }),
    );
  });
});

describe('parseArguments and errorText', () => {
  it('parses objects and maps blank input to {}', () => {
    expect(parseArguments('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseArguments('')).toEqual({ ok: true, value: {} });
    expect(parseArguments('  \t')).toEqual({ ok: true, value: {} });
    expect(parseArguments('[]')).toEqual({ ok: false, error: 'expected a JSON object, got an array' });
    expect(parseArguments('nul')).toMatchObject({ ok: false });
  });

  it('adds the cause code of network errors', () => {
    const error = new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    expect(errorText(error)).toBe('fetch failed (ECONNREFUSED)');
    expect(errorText(new Error('outer', { cause: new Error('inner detail') }))).toBe('outer (inner detail)');
    expect(errorText(new Error('ECONNREFUSED already', { cause: { code: 'ECONNREFUSED' } }))).toBe('ECONNREFUSED already');
    expect(errorText('plain')).toBe('plain');
    expect(errorText(42)).toBe('42');
    const unnamed = new Error('');
    unnamed.name = 'CustomError';
    expect(errorText(unnamed)).toBe('CustomError');
  });
});
