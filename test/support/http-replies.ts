/** The few HTTP moves every wire-protocol test server makes. */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export function startSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

export function json(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(JSON.stringify(body));
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

/** Listens on a free loopback port; `close` drops open connections too, so a test never waits on one. */
export async function listenOnLoopback(server: Server): Promise<{ origin: string; close: () => Promise<void> }> {
  patientKeepAlive(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Node closes an idle keep-alive socket after 5 s. On a loaded machine the client can pick that
 * socket for its next request just as it closes, get ECONNRESET and retry, which spends one more
 * step of a scripted server than the test planned. Test servers keep idle sockets far longer.
 */
function patientKeepAlive(server: Server): void {
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;
}

/**
 * Bytes a real provider sent, replayed verbatim (`raw_bytes`), or a peer that never stops
 * (`endless`: `head`, then `repeat` for as long as the client reads, written as the socket drains).
 */
export type RawFault = { kind: 'raw_bytes'; bytes: string; status?: number } | { kind: 'endless'; head: string; repeat: string; contentType?: string };

export function sendRaw(res: ServerResponse, step: RawFault): void {
  if (step.kind === 'raw_bytes') {
    res.writeHead(step.status ?? 200, { 'content-type': 'text/event-stream' });
    res.end(step.bytes);
    return;
  }
  res.writeHead(200, { 'content-type': step.contentType ?? 'text/event-stream' });
  const repeat = Buffer.from(step.repeat.repeat(Math.max(1, Math.floor(65536 / step.repeat.length))));
  let open = true;
  res.on('close', () => (open = false));
  const pump = (): void => {
    while (open && res.write(repeat));
    if (open) res.once('drain', pump);
  };
  res.write(step.head);
  pump();
}
