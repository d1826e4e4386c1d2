/** fetch_url against respelled hosts, redirects, private addresses and pages that never end. */
import fc from 'fast-check';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPermissionPolicy } from '../src/permissions/permission-policy.js';
import { createFetchUrlTool, fetchUrlTool } from '../src/tools/builtin/fetch-url.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { runScenario } from './support/harness.js';

const open: Server[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

interface Page {
  port: number;
  hits: number;
  /** Resolves when a request has come. */
  hit: Promise<void>;
  /** Resolves when the connection of the first request has closed. */
  closed: Promise<void>;
}

async function page(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<Page> {
  let hit!: () => void;
  let closed!: () => void;
  const state: Page = { port: 0, hits: 0, hit: new Promise((resolve) => (hit = resolve)), closed: new Promise((resolve) => (closed = resolve)) };
  const server = createServer((req, res) => {
    state.hits++;
    res.once('close', closed);
    hit();
    handle(req, res);
  });
  server.on('connection', (socket) => socket.unref());
  open.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  return state;
}

const ok = (text: string) => (_req: IncomingMessage, res: ServerResponse) => res.end(text);

/** Ways to write 127.0.0.1 in a URL's host that the parser reads as that address. */
const LOOPBACK_SPELLINGS = ['127.0.0.1', '0x7f000001', '2130706433', '127.000.000.001', '0177.0.0.1', '127.1', '0x7f.1', '127.0.0.1.', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]'];

describe('deny rules match the normalised URL', () => {
  it('property: no spelling of a denied host gets past fetch(http://127.0.0.1*)', async () => {
    const target = await page(ok('secret'));
    const registry = new ToolRegistry([createFetchUrlTool({ privateHosts: ['127.0.0.1'] })]);
    const policy = createPermissionPolicy({ mode: 'yolo', deny: ['fetch(http://127.0.0.1*)'] });
    const spelled = fc.record({
      scheme: fc.constantFrom('http', 'HTTP', 'Http', 'hTtP'),
      slashes: fc.constantFrom('//', '', '/', '\\\\', '///'),
      host: fc.constantFrom(...LOOPBACK_SPELLINGS.filter((host) => !host.startsWith('['))),
      upper: fc.boolean(),
      space: fc.constantFrom('', ' ', '\t', '\n '),
      path: fc.constantFrom('/', '/a?b=1', '', '/%2e%2e/x'),
    });
    await fc.assert(
      fc.asyncProperty(spelled, async ({ scheme, slashes, host, upper, space, path }) => {
        const url = `${space}${scheme}:${slashes}${upper ? host.toUpperCase() : host}:${target.port}${path}`;
        const result = await registry.invoke({ id: 'c', name: 'fetch_url', arguments: JSON.stringify({ url }) }, { authorize: policy });
        expect(result.status, url).toBe('denied');
      }),
      { numRuns: 150 },
    );
    expect(target.hits).toBe(0);
  });

  it('a rule written for the host also holds for its IPv6-mapped spelling and a trailing dot', async () => {
    const tool = createFetchUrlTool({ privateHosts: ['127.0.0.1'] });
    const subject = (url: string) => tool.permission.subject?.({ url })?.value;
    expect(subject(' HTTP://0x7F000001:80/a')).toBe('http://127.0.0.1/a');
    expect(subject('http:127.000.000.001')).toBe('http://127.0.0.1/');
    expect(subject('http://[::ffff:127.0.0.1]/')).toBe('http://[::ffff:7f00:1]/');
  });
});

describe('redirects are authorised hop by hop', () => {
  it.each(['http://127.0.0.1:PORT/x', 'HTTP://0x7f000001:PORT/x', '//127.1:PORT/x', 'HTTP://2130706433:PORT/x'])('an allowed page redirecting to %s on a denied port is not followed', async (spelling) => {
    const denied = await page(ok('secret'));
    const allowed = await page((_req, res) => res.writeHead(302, { location: spelling.replace('PORT', String(denied.port)) }).end());
    const registry = new ToolRegistry([createFetchUrlTool({ privateHosts: ['127.0.0.1'] })]);
    const policy = createPermissionPolicy({ mode: 'auto-edit', allow: [`fetch(http://127.0.0.1:${allowed.port}/*)`], deny: [`fetch(http://127.0.0.1:${denied.port}/*)`] });
    const result = await registry.invoke({ id: 'r', name: 'fetch_url', arguments: JSON.stringify({ url: `http://127.0.0.1:${allowed.port}/start` }) }, { authorize: policy });
    expect(result.content).toMatch(/^Not followed: .* redirects to http:\/\/127\.0\.0\.1:\d+\/x, which is denied: the rule/);
    expect(denied.hits).toBe(0);
  });

  it('follows a redirect the rules allow, and says where it ended', async () => {
    const final = await page(ok('landed'));
    const first = await page((_req, res) => res.writeHead(301, { location: `http://127.0.0.1:${final.port}/end` }).end());
    const registry = new ToolRegistry([createFetchUrlTool({ privateHosts: ['127.0.0.1'] })]);
    const policy = createPermissionPolicy({ mode: 'auto-edit', allow: ['fetch(http://127.0.0.1:*)'] });
    const result = await registry.invoke({ id: 'r', name: 'fetch_url', arguments: JSON.stringify({ url: `http://127.0.0.1:${first.port}/` }) }, { authorize: policy });
    expect(result.content).toMatch(new RegExp(`^status: 200 OK\\nurl: http://127.0.0.1:${final.port}/end\\n[\\s\\S]*\\n\\nlanded$`));
  });

  it('stops after five redirects', async () => {
    const loop = await page((req, res) => res.writeHead(302, { location: `${req.url}x` }).end());
    const result = await new ToolRegistry([createFetchUrlTool({ privateHosts: ['127.0.0.1'] })]).invoke({ id: 'r', name: 'fetch_url', arguments: JSON.stringify({ url: `http://127.0.0.1:${loop.port}/` }) });
    expect(result.content).toMatch(/more than 5 redirects/);
    expect(loop.hits).toBe(6);
  });
});

describe('private, loopback and link-local addresses need an explicit allow', () => {
  it.each([...LOOPBACK_SPELLINGS, 'localhost', '[::1]', '169.254.169.254', '10.0.0.1', '192.168.1.1', '172.16.0.1', '[fe80::1]', '[fd00::1]', '0.0.0.0', '100.64.0.1'])('refuses %s without connecting', async (host) => {
    const result = await new ToolRegistry([fetchUrlTool]).invoke({ id: 'p', name: 'fetch_url', arguments: JSON.stringify({ url: `http://${host}/latest/meta-data/` }) });
    expect(result.content).toMatch(/^Not fetched: .* resolves to .*, a private, loopback or link-local address\. Only the user can allow that host/);
  });

  it('a public page redirecting to a private address is refused at that hop', async () => {
    const inside = await page(ok('secret'));
    const outside = await page((_req, res) => res.writeHead(302, { location: `http://localhost:${inside.port}/` }).end());
    const result = await new ToolRegistry([createFetchUrlTool({ privateHosts: ['127.0.0.1'] })]).invoke({ id: 'p', name: 'fetch_url', arguments: JSON.stringify({ url: `http://127.0.0.1:${outside.port}/` }) });
    expect(result.content).toMatch(/^Not fetched: localhost resolves to/);
    expect(inside.hits).toBe(0);
  });
});

describe('a page that never ends', () => {
  const endless = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const write = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', write);
    };
    write();
  };

  it('is read up to the cap and the connection is closed', async () => {
    const server = await page(endless);
    const tool = createFetchUrlTool({ privateHosts: ['127.0.0.1'] });
    const result = await new ToolRegistry([tool]).invoke({ id: 'e', name: 'fetch_url', arguments: JSON.stringify({ url: `http://127.0.0.1:${server.port}/` }) });
    expect(result.content).toMatch(/^status: 200 OK\ncontent-type: text\/plain\nlength: at least 1048576 characters \(stopped reading after 1048576 bytes\)\n/);
    expect(result.content).toMatch(/omitted of 1,048,6\d\d; full output saved as output id out_[0-9a-f]{12}/);
    await server.closed;
  });

  it('Ctrl-C while it streams ends the run as aborted', async () => {
    const server = await page(endless);
    const controller = new AbortController();
    void server.hit.then(() => controller.abort(new Error('Ctrl-C')));
    const { result } = await runScenario([{ toolCalls: [{ id: 'f', name: 'fetch_url', arguments: { url: `http://127.0.0.1:${server.port}/` } }] }, { text: 'never asked for' }], {
      toolList: [createFetchUrlTool({ privateHosts: ['127.0.0.1'] })],
      signal: controller.signal,
    });
    expect(result.stopReason).toBe('aborted');
    await server.closed;
  });
});
