import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createToolServer, type ServeOptions } from './serve-registry.js';

export interface HttpServeOptions {
  /** The address to listen on (default 127.0.0.1: this machine only). */
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Every request must carry `Authorization: Bearer <token>`. */
  token: string;
}

export interface HttpServing {
  url: string;
  close(): Promise<void>;
  closed: Promise<void>;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Our tools over MCP streamable HTTP at `/mcp`, stateless (a fresh SDK server and transport per
 * request: a call needs nothing from an earlier one). Before the SDK sees a request: the Host
 * header must name this server (DNS rebinding), an Origin, when sent, must be a page of this
 * machine (the MCP spec's Origin check), and the bearer token must match.
 */
export async function serveRegistryHttp(options: ServeOptions, http: HttpServeOptions): Promise<HttpServing> {
  const expected = Buffer.from(`Bearer ${http.token}`);
  let port = http.port;
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, `internal error: ${(error as Error).message}`);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== '/mcp') return refuse(res, 404, 'not found: the MCP endpoint is /mcp');
    if (!hostAllowed(req.headers.host, http.host, port)) return refuse(res, 403, `Host ${JSON.stringify(req.headers.host ?? '')} is not this server`);
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin)) return refuse(res, 403, `Origin ${JSON.stringify(origin)} is not allowed: only pages of this machine may call`);
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="vibe-agent"');
      return refuse(res, 401, 'a bearer token is required (Authorization: Bearer <token>)');
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return refuse(res, 405, 'this server is stateless: POST only');
    }
    const tools = createToolServer(options);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void tools.close();
    });
    await tools.connect(transport);
    await transport.handleRequest(req, res);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(http.port, http.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
  const host = http.host.includes(':') ? `[${http.host}]` : http.host;
  return {
    url: `http://${host}:${port}/mcp`,
    closed,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

function hostAllowed(header: string | undefined, host: string, port: number): boolean {
  if (!header) return false;
  const url = safeUrl(`http://${header}`);
  if (!url || Number(url.port || 80) !== port) return false;
  return url.hostname === host || url.hostname === `[${host}]` || (isLoopback(host) && LOOPBACK_NAMES.has(url.hostname));
}

function originAllowed(origin: string): boolean {
  const url = safeUrl(origin);
  return url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_NAMES.has(url.hostname);
}

function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || host.startsWith('127.');
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
