/**
 * A loopback reverse proxy that adds `Authorization: Bearer <token>` to every request: what a
 * client configured with the token sends, for a caller that cannot be told a header (the MCP
 * conformance suite's server mode). The Host header is passed through, rewritten only when it
 * names the proxy itself, so Host checks still see what the caller sent.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BearerProxy {
  url: string;
  close(): Promise<void>;
}

export async function startBearerProxy(target: string, token: string): Promise<BearerProxy> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const { port } = server.address() as AddressInfo;
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (headers.host === `127.0.0.1:${port}` || headers.host === `localhost:${port}`) headers.host = upstream.host;
    const forward = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(`proxy: ${error.message}`);
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
