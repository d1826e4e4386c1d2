import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const DEMO_PAGE = `<!doctype html>
<html><head><title>Vibe Agent demo page</title></head>
<body><h1>The agent loop</h1>
<p>Call the model, read tool_calls, run the tools, append the results, ask again.</p>
</body></html>
`;

/** Serves the fetch task's page on 127.0.0.1 so the demo works with no network. */
export async function serveDemoPage(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(DEMO_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
