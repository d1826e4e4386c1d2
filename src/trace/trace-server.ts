import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TraceServer {
  /** The page's address, token included: http://127.0.0.1:PORT/TOKEN/ */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves one page on 127.0.0.1 at a random free port, under an unguessable path. Anything else
 * (another path, a wrong token, a method other than GET/HEAD) is a 404, and so is a request whose
 * Host header is not this server's own (a DNS-rebinding page in the browser would send its own name).
 */
export async function serveTracePage(html: string): Promise<TraceServer> {
  const token = randomBytes(24).toString('base64url');
  const body = Buffer.from(html);
  let allowedHosts = new Set<string>();
  const server = createServer((request, response) => {
    if (!allowedHosts.has(request.headers.host ?? '') || !isPagePath(request, token)) return notFound(response);
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': body.length,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return {
    url: `http://127.0.0.1:${port}/${token}/`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function isPagePath(request: IncomingMessage, token: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = (request.url ?? '').split('?')[0];
  return path === `/${token}/` || path === `/${token}`;
}

function notFound(response: ServerResponse): void {
  response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
  response.end('Not found\n');
}
