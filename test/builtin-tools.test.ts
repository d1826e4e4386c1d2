import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { currentTimeTool, isoInZone } from '../src/tools/builtin/current-time.js';
import { evaluate, ExpressionError, formatNumber } from '../src/tools/builtin/expression.js';
import { createFetchUrlTool } from '../src/tools/builtin/fetch-url.js';

// The pages are served on 127.0.0.1, which fetch_url reaches only when told to.
const fetchUrlTool = createFetchUrlTool({ privateHosts: ['127.0.0.1'] });
import { defineTool } from '../src/tools/define-tool.js';
import type { ToolContext, ToolOutput } from '../src/contracts/tool.js';
import { ToolRegistry } from '../src/tools/registry.js';

const context = (): ToolContext => ({ signal: new AbortController().signal, workspace: process.cwd() });

/** Normalizes a ToolOutput into { output, isError }. */
function normalize(result: ToolOutput): { output: string; isError: boolean } {
  return typeof result === 'string' ? { output: result, isError: false } : { output: result.output, isError: result.isError === true };
}

async function calc(expression: string) {
  return normalize(await calculatorTool.execute({ expression }, context()));
}

describe('evaluate (expression parser)', () => {
  it.each([
    ['2+3*4', 14],
    ['2*3+4', 10],
    ['10-4-3', 3],
    ['100/10/5', 2],
    ['(2+3)*4', 20],
    ['((1+2)*(3+4))', 21],
    ['2*(3+(4-1))/3', 4],
  ])('respects precedence and parentheses: %s = %d', (source, expected) => {
    expect(evaluate(source)).toBe(expected);
  });

  it('makes ^ right-associative and binds it tighter than unary minus', () => {
    expect(evaluate('2^3^2')).toBe(512);
    expect(evaluate('(2^3)^2')).toBe(64);
    expect(evaluate('-2^2')).toBe(-4);
    expect(evaluate('(-2)^2')).toBe(4);
    expect(evaluate('2^-1')).toBe(0.5);
    expect(evaluate('2^-1^2')).toBe(0.5);
  });

  it('handles repeated and mixed unary signs', () => {
    expect(evaluate('--3')).toBe(3);
    expect(evaluate('-+-3')).toBe(3);
    expect(evaluate('+4')).toBe(4);
    expect(evaluate('5--2')).toBe(7);
    expect(evaluate('3*-2')).toBe(-6);
  });

  it('computes the remainder with %', () => {
    expect(evaluate('17 % 5')).toBe(2);
    expect(evaluate('2 + 17 % 5 * 3')).toBe(8);
    expect(evaluate('-7 % 3')).toBe(-1);
  });

  it('parses decimals, leading dots and exponents', () => {
    expect(evaluate('1.5*2')).toBe(3);
    expect(evaluate('.5 + .25')).toBe(0.75);
    expect(evaluate('2e3')).toBe(2000);
    expect(evaluate('1.5E-2')).toBeCloseTo(0.015, 15);
    expect(evaluate('  1 +\t2 ')).toBe(3);
  });

  it('supports functions, including several arguments, log base and round digits', () => {
    expect(evaluate('sqrt(16)')).toBe(4);
    expect(evaluate('sqrt(2)^2')).toBeCloseTo(2, 12);
    expect(evaluate('max(3, 9, 2, 7)')).toBe(9);
    expect(evaluate('min(3, -9, 2)')).toBe(-9);
    expect(evaluate('max(4)')).toBe(4);
    expect(evaluate('log(1000)')).toBeCloseTo(3, 12);
    expect(evaluate('log(8, 2)')).toBeCloseTo(3, 12);
    expect(evaluate('log2(1024)')).toBe(10);
    expect(evaluate('ln(e)')).toBe(1);
    expect(evaluate('round(3.14159, 2)')).toBe(3.14);
    expect(evaluate('round(2.5)')).toBe(3);
    expect(evaluate('round(1234, -2)')).toBe(1200);
    expect(evaluate('abs(-5) + floor(2.7) + ceil(2.1)')).toBe(10);
    expect(evaluate('pow(2, 10)')).toBe(1024);
    expect(evaluate('SQRT(9)')).toBe(3);
  });

  it('knows the constants pi, e and tau', () => {
    expect(evaluate('pi')).toBe(Math.PI);
    expect(evaluate('e')).toBe(Math.E);
    expect(evaluate('tau')).toBe(2 * Math.PI);
    expect(evaluate('2*PI')).toBe(2 * Math.PI);
    expect(evaluate('cos(pi)')).toBe(-1);
  });

  it('accepts ** as power and × ÷ as multiply and divide', () => {
    expect(evaluate('2**10')).toBe(1024);
    expect(evaluate('2**3**2')).toBe(512);
    expect(evaluate('6×7')).toBe(42);
    expect(evaluate('84÷2')).toBe(42);
    expect(evaluate('3 × 4 ÷ 6')).toBe(2);
  });

  it('raises ExpressionError for division and modulo by zero', () => {
    expect(() => evaluate('1/0')).toThrow(ExpressionError);
    expect(() => evaluate('1/0')).toThrow(/Division by zero/);
    expect(() => evaluate('5 % 0')).toThrow(/Modulo by zero/);
    expect(() => evaluate('1/(2-2)')).toThrow(/Division by zero/);
  });

  it('rejects non-numeric and infinite results', () => {
    expect(() => evaluate('sqrt(-1)')).toThrow(/not a number/);
    expect(() => evaluate('10^400')).toThrow(/infinite/);
  });

  it.each([
    ['2+', /ends too early/],
    ['abc', /Unknown name "abc"/],
    ['2 $ 3', /Unexpected character "\$" at position 3/],
    ['', /empty/],
    ['   ', /empty/],
    ['sqrt(1,2)', /sqrt\(\) takes 1 argument/],
    ['(1+2', /Expected "\)" at the end/],
    ['1+2)', /Unexpected "\)" at position 4/],
    ['2 3', /Unexpected "3" at position 3/],
    ['foo(1)', /Unknown function "foo"/],
    ['max()', /max\(\) takes 1 to any number of argument/],
    ['pow(2)', /pow\(\) takes 2 argument/],
    ['.', /Unexpected "\."/],
  ])('rejects %j with a clear ExpressionError', (source, message) => {
    expect(() => evaluate(source)).toThrow(ExpressionError);
    expect(() => evaluate(source)).toThrow(message);
  });
});

describe('formatNumber', () => {
  it('removes binary floating-point noise', () => {
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatNumber(evaluate('0.1+0.2'))).toBe('0.3');
    expect(formatNumber(1 / 3)).toBe('0.333333333333');
  });

  it('keeps safe integers exact', () => {
    expect(formatNumber(42)).toBe('42');
    expect(formatNumber(-7)).toBe('-7');
    expect(formatNumber(2 ** 52)).toBe('4503599627370496');
  });
});

describe('calculator tool', () => {
  it('is read-only with a JSON schema requiring expression', () => {
    expect(calculatorTool.name).toBe('calculator');
    expect(calculatorTool.readOnly).toBe(true);
    expect(calculatorTool.needsApproval).toBe(false);
    expect(calculatorTool.schema.parameters).toMatchObject({ type: 'object', required: ['expression'] });
  });

  it('answers "expression = result"', async () => {
    expect(await calc('2+3*4')).toEqual({ output: '2+3*4 = 14', isError: false });
    expect(await calc('2^3^2')).toEqual({ output: '2^3^2 = 512', isError: false });
    expect(await calc('-2^2')).toEqual({ output: '-2^2 = -4', isError: false });
    expect(await calc('2^-1')).toEqual({ output: '2^-1 = 0.5', isError: false });
    expect(await calc('0.1+0.2')).toEqual({ output: '0.1+0.2 = 0.3', isError: false });
    expect(await calc('max(1, 5, 3)')).toEqual({ output: 'max(1, 5, 3) = 5', isError: false });
    expect(await calc('round(2/3, 3)')).toEqual({ output: 'round(2/3, 3) = 0.667', isError: false });
  });

  it.each([
    ['2+', /ends too early/],
    ['abc', /Unknown name/],
    ['2 $ 3', /Unexpected character/],
    ['', /empty/],
    ['sqrt(1,2)', /takes 1 argument/],
    ['1/0', /Division by zero/],
    ['5%0', /Modulo by zero/],
  ])('returns isError for %j instead of throwing', async (expression, message) => {
    const result = await calc(expression);
    expect(result.isError).toBe(true);
    expect(result.output).toContain(`Cannot evaluate "${expression}"`);
    expect(result.output).toMatch(message);
  });

  it.each(['process.exit(1)', 'constructor', '__proto__', 'constructor + 1', 'this', 'globalThis', 'require("fs")', 'alert`1`', '[].map', 'x => 1', 'eval(1)', 'Function("return 1")()'])(
    'never evaluates JavaScript: %j is rejected',
    async (expression) => {
      const result = await calc(expression);
      expect(result.isError).toBe(true);
      expect(result.output).toContain('Cannot evaluate');
      expect(result.output).not.toMatch(/ = /);
    },
  );

  it('reports prototype names called as functions as an error result through the registry (never a value)', async () => {
    const registry = new ToolRegistry([calculatorTool]);
    const result = await registry.invoke({ id: 'c1', name: 'calculator', arguments: JSON.stringify({ expression: 'constructor(1)' }) });
    expect(result.isError).toBe(true);
    expect(result.status).toBe('error');
    expect(result.content).not.toMatch(/ = /);
    expect(result.content).toMatch(/Unknown function "constructor"/);
  });

  it('keeps large integers exact', () => {
    expect(formatNumber(evaluate('2^60'))).toBe('1152921504606846976');
  });

  it('via the registry rejects a missing or non-string expression', async () => {
    const registry = new ToolRegistry([calculatorTool]);
    const missing = await registry.invoke({ id: 'c2', name: 'calculator', arguments: '{}' });
    expect(missing.status).toBe('error');
    expect(missing.content).toContain('expression');
    const wrongType = await registry.invoke({ id: 'c3', name: 'calculator', arguments: '{"expression": 12}' });
    expect(wrongType.status).toBe('error');
    expect(wrongType.content).toContain('expression');
    const ok = await registry.invoke({ id: 'c4', name: 'calculator', arguments: '{"expression": "6*7"}' });
    expect(ok).toMatchObject({ status: 'ok', isError: false, content: '6*7 = 42' });
  });
});

describe('current_time tool', () => {
  const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}/;

  it('returns ISO 8601 with an offset in the local zone by default', async () => {
    const { output, isError } = normalize(await currentTimeTool.execute({}, context()));
    expect(isError).toBe(false);
    expect(output).toMatch(ISO);
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(output).toContain(`(${zone})`);
  });

  it('gives +08:00 for Asia/Shanghai and +00:00 for UTC', async () => {
    const shanghai = normalize(await currentTimeTool.execute({ timezone: 'Asia/Shanghai' }, context()));
    expect(shanghai.isError).toBe(false);
    expect(shanghai.output).toMatch(ISO);
    expect(shanghai.output).toMatch(/^\S+\+08:00 \(Asia\/Shanghai\)$/);

    const utc = normalize(await currentTimeTool.execute({ timezone: 'UTC' }, context()));
    expect(utc.isError).toBe(false);
    expect(utc.output).toMatch(/^\S+\+00:00 \(UTC\)$/);
  });

  it('is close to the real clock', async () => {
    const before = Date.now();
    const { output } = normalize(await currentTimeTool.execute({ timezone: 'Asia/Shanghai' }, context()));
    const after = Date.now();
    const stamp = Date.parse(output.split(' ')[0]!);
    expect(stamp).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(stamp).toBeLessThanOrEqual(after);
  });

  it.each(['Mars/Olympus_Mons', 'not a zone', ''])('flags an unknown zone %j as isError', async (timezone) => {
    const { output, isError } = normalize(await currentTimeTool.execute({ timezone }, context()));
    expect(isError).toBe(true);
    expect(output).toContain(`Unknown time zone "${timezone}"`);
  });
});

describe('isoInZone', () => {
  const instant = new Date('2026-12-02T12:57:51.789Z');

  it('formats a fixed instant in several zones', () => {
    expect(isoInZone(instant, 'UTC')).toBe('2026-12-02T12:57:51+00:00');
    expect(isoInZone(instant, 'Asia/Shanghai')).toBe('2026-12-02T20:57:51+08:00');
    expect(isoInZone(instant, 'America/New_York')).toBe('2026-12-02T07:57:51-05:00');
    expect(isoInZone(instant, 'Asia/Kolkata')).toBe('2026-12-02T18:27:51+05:30');
    expect(isoInZone(instant, 'America/St_Johns')).toBe('2026-12-02T09:27:51-03:30');
  });

  it('follows daylight saving time', () => {
    expect(isoInZone(new Date('2026-07-01T12:00:00Z'), 'America/New_York')).toBe('2026-07-01T08:00:00-04:00');
    expect(isoInZone(new Date('2026-07-01T12:00:00Z'), 'Europe/London')).toBe('2026-07-01T13:00:00+01:00');
    expect(isoInZone(new Date('2026-01-01T12:00:00Z'), 'Europe/London')).toBe('2026-01-01T12:00:00+00:00');
  });

  it('crosses day and year boundaries, and midnight is 00 not 24', () => {
    expect(isoInZone(new Date('2026-12-31T20:00:00Z'), 'Asia/Tokyo')).toBe('2027-01-01T05:00:00+09:00');
    expect(isoInZone(new Date('2027-01-01T03:00:00Z'), 'America/Los_Angeles')).toBe('2026-12-31T19:00:00-08:00');
    expect(isoInZone(new Date('2026-12-02T16:00:00Z'), 'Asia/Shanghai')).toBe('2026-12-03T00:00:00+08:00');
  });

  it('round-trips through Date.parse to the same second', () => {
    for (const zone of ['UTC', 'Asia/Shanghai', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham']) {
      expect(Date.parse(isoInZone(instant, zone))).toBe(Math.floor(instant.getTime() / 1000) * 1000);
    }
  });

  it('throws on an unknown zone', () => {
    expect(() => isoInZone(instant, 'Nowhere/Special')).toThrow(RangeError);
  });
});

describe('fetch_url tool', () => {
  const TEXT_BODY = 'héllo, wörld — plain text\n';
  const BIG_BODY = 'abcdefghij'.repeat(5_000); // 50,000 characters
  let server: Server;
  let base: string;
  const hanging: ServerResponse[] = [];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/text') {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(TEXT_BODY);
      } else if (req.url === '/json') {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      } else if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(BIG_BODY);
      } else if (req.url === '/redirect') {
        res.writeHead(302, { location: '/text' });
        res.end();
      } else if (req.url === '/ua') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(String(req.headers['user-agent']));
      } else if (req.url?.startsWith('/hang')) {
        hanging.push(res); // never answers
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('no such page');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function fetchDirect(url: string) {
    return normalize(await fetchUrlTool.execute({ url }, context()));
  }

  it('is read-only (runs alongside other reads), asks first (a GET sends data out), and has its own time limit', () => {
    expect(fetchUrlTool.readOnly).toBe(true);
    expect(fetchUrlTool.needsApproval).toBe(true);
    expect(fetchUrlTool.timeoutMs).toBe(20_000);
  });

  it('reports status, content type, length in characters, and the body', async () => {
    const { output, isError } = await fetchDirect(`${base}/text`);
    expect(isError).toBe(false);
    const lines = output.split('\n');
    expect(lines[0]).toBe('status: 200 OK');
    expect(lines[1]).toBe('content-type: text/plain; charset=utf-8');
    expect(lines[2]).toBe(`length: ${TEXT_BODY.length} characters`);
    // characters, not bytes: the body has multi-byte characters.
    expect(Buffer.byteLength(TEXT_BODY)).not.toBe(TEXT_BODY.length);
    expect(output.endsWith(`\n\n${TEXT_BODY}`)).toBe(true);
  });

  it('reports non-200 success statuses and other content types', async () => {
    const { output, isError } = await fetchDirect(`${base}/json`);
    expect(isError).toBe(false);
    expect(output).toMatch(/^status: 201 Created\ncontent-type: application\/json\nlength: 11 characters\n\n\{"ok":true\}$/);
  });

  it('follows redirects and sends a user agent', async () => {
    const redirected = await fetchDirect(`${base}/redirect`);
    expect(redirected.output).toMatch(/^status: 200 OK/);
    expect(redirected.output).toContain(TEXT_BODY);
    const ua = await fetchDirect(`${base}/ua`);
    expect(ua.output.endsWith('\n\nvibe-agent')).toBe(true);
  });

  it('flags a 404 as isError while still showing the page', async () => {
    const { output, isError } = await fetchDirect(`${base}/missing`);
    expect(isError).toBe(true);
    expect(output).toMatch(/^status: 404 Not Found/);
    expect(output).toContain('no such page');
  });

  it('returns a 50k body whole with its length: the cap is the registry\'s', async () => {
    const { output, isError } = await fetchDirect(`${base}/big`);
    expect(isError).toBe(false);
    expect(output).toContain('length: 50000 characters');
    expect(output.slice(output.indexOf('\n\n') + 2)).toBe(BIG_BODY);
  });

  it('a registry with a small maxOutputChars keeps head and tail and stores the whole page for read_output', async () => {
    const registry = new ToolRegistry([fetchUrlTool], { maxOutputChars: 1_000 });
    const result = await registry.invoke({ id: 'f0', name: 'fetch_url', arguments: JSON.stringify({ url: `${base}/big` }) });
    expect(result.status).toBe('ok');
    expect(result.content.startsWith('status: 200 OK')).toBe(true);
    const id = /omitted of [\d,]+; full output saved as output id (out_[0-9a-f]{12})/.exec(result.content)![1]!;
    expect(result.content.endsWith(BIG_BODY.slice(-400))).toBe(true);
    expect((await registry.outputs.get(id))!.endsWith(`\n\n${BIG_BODY}`)).toBe(true);
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/file.txt', 'data:text/plain,hello', 'javascript:alert(1)'])(
    'refuses the non-http URL %j',
    async (url) => {
      const { output, isError } = await fetchDirect(url);
      expect(isError).toBe(true);
      expect(output).toMatch(/^Only http and https URLs can be fetched/);
      expect(output).not.toContain('root:');
    },
  );

  it.each(['not a url', 'example.com/page', '/relative/path', ''])('refuses the non-URL %j', async (url) => {
    const { output, isError } = await fetchDirect(url);
    expect(isError).toBe(true);
    expect(output).toContain('is not an absolute URL');
  });

  it('turns a refused connection into an error result through the registry', async () => {
    // Listen and close to get a port that is (almost certainly) free.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const registry = new ToolRegistry([fetchUrlTool]);
    const result = await registry.invoke({ id: 'f1', name: 'fetch_url', arguments: JSON.stringify({ url: `http://127.0.0.1:${port}/` }) });
    expect(result.status).toBe('error');
    expect(result.content).toMatch(/^fetch_url failed: /);
    expect(result.content).toContain('ECONNREFUSED');
  });

  it('is cancelled by an outer AbortSignal while the server never answers', async () => {
    const registry = new ToolRegistry([fetchUrlTool]);
    const controller = new AbortController();
    const reached = new Promise<IncomingMessage>((resolve) => server.once('request', (req: IncomingMessage) => resolve(req)));
    const pending = registry.invoke({ id: 'f2', name: 'fetch_url', arguments: JSON.stringify({ url: `${base}/hang/abort` }) }, { signal: controller.signal });
    const req = await reached;
    expect(req.url).toBe('/hang/abort');
    const closed = new Promise<void>((resolve) => req.socket.once('close', () => resolve()));
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.status).toBe('error');
    expect(result.content).toMatch(/cancelled/);
    expect(result.args).toEqual({ url: `${base}/hang/abort` });
    // The abort reached fetch: the client closed the connection.
    await closed;
    expect(req.socket.destroyed).toBe(true);
  });

  it('times out when the server never answers, and the request is torn down', async () => {
    const quick = defineTool({
      name: 'fetch_url',
      description: fetchUrlTool.description,
      parameters: (z) => z.object({ url: z.string() }),
      readOnly: true,
      // The request must reach the server before the limit (awaited below): 100 ms is short of that at load 20.
      timeoutMs: 1_000,
      execute: (args, ctx) => fetchUrlTool.execute(args, ctx),
    });
    const registry = new ToolRegistry([quick]);
    const reached = new Promise<IncomingMessage>((resolve) => server.once('request', (req: IncomingMessage) => resolve(req)));
    const result = await registry.invoke({ id: 'f3', name: 'fetch_url', arguments: JSON.stringify({ url: `${base}/hang/timeout` }) });
    expect(result.status).toBe('error');
    expect(result.content).toBe('fetch_url timed out after 1000 ms and was stopped.');
    const req = await reached;
    if (!req.socket.destroyed) await new Promise<void>((resolve) => req.socket.once('close', () => resolve()));
    expect(req.socket.destroyed).toBe(true);
  });
});
