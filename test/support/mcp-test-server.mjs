// A real MCP server, written with the SDK's server side, for the MCP tests and the bench.
// Run as a process it serves stdio; `createTestServer` is imported to serve it over HTTP.
// Flags: --start-delay MS (wait before answering), --fail (exit at once), --garbage (answer with
// lines that are not JSON-RPC), --pid-file PATH (write the pid), --name NAME, --growable (a `grow`
// tool that adds `shout` and removes `hang`, announced with tools/list_changed).
import { appendFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

export function createTestServer(name = 'test', { growable = false } = {}) {
  const server = new McpServer({ name, version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes the text back.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } }, async ({ text }) => ({
    content: [{ type: 'text', text: `echo: ${text}` }],
  }));
  server.registerTool('add', { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  server.registerTool('big', { description: 'Returns this many characters.', inputSchema: { chars: z.number().int() }, annotations: { readOnlyHint: true } }, async ({ chars }) => ({
    content: [{ type: 'text', text: 'x'.repeat(chars) }],
  }));
  const hang = server.registerTool('hang', { description: 'Never answers.', inputSchema: {} }, () => new Promise(() => {}));
  server.registerTool('crash', { description: 'Exits the server process mid-call.', inputSchema: {} }, async () => {
    process.exit(3);
  });
  server.registerTool('picture', { description: 'Returns an image and a resource.', inputSchema: {} }, async () => ({
    content: [
      { type: 'image', data: Buffer.from('not really a png').toString('base64'), mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'the notes' } },
    ],
  }));
  server.registerPrompt('review', { description: 'Asks for a review of one file.', argsSchema: { file: z.string(), focus: z.string().optional() } }, ({ file, focus }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Review ${file}${focus ? `, focusing on ${focus}` : ''}.` } }],
  }));
  server.registerResource('readme', 'notes://readme', { description: 'The notes read-me.', mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Notes are kept one per line.' }],
  }));
  if (growable) {
    // Changes its tool list mid-run: the SDK sends notifications/tools/list_changed before the answer.
    server.registerTool('grow', { description: 'Adds the tool shout and removes hang.', inputSchema: {} }, async () => {
      server.registerTool('shout', { description: 'Shouts the text.', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }));
      hang.remove();
      return { content: [{ type: 'text', text: 'grown' }] };
    });
  }
  server.registerTool('fails', { description: 'Reports an error.', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'it went wrong' }], isError: true }));
  return server;
}

function flag(name) {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : (process.argv[index + 1] ?? '');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pidFile = flag('--pid-file');
  if (pidFile) appendFileSync(pidFile, `${process.pid}\n`);
  if (process.argv.includes('--fail')) {
    process.stderr.write('cannot open the database\n');
    process.exit(1);
  }
  if (process.argv.includes('--garbage')) {
    // Answers the first message with lines that are not JSON-RPC, then exits.
    process.stdin.once('data', () => process.stdout.write('this is not json-rpc\n', () => process.exit(2)));
  } else {
    const delay = Number(flag('--start-delay') ?? 0);
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    await createTestServer(flag('--name') ?? 'test', { growable: process.argv.includes('--growable') }).connect(new StdioServerTransport());
    if (flag('--ready-file')) writeFileSync(flag('--ready-file'), 'ready');
  }
}
