import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CLI } from './support/cli-process.js';

const root = mkdtempSync(join(tmpdir(), 'vibe-mcp-serve-'));
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
/** The built CLI as an MCP server, spawned by the SDK's client over real stdio, in a fresh home and workspace. */
async function serve(...flags: string[]) {
  const dir = join(root, `case-${++count}`);
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'notes.txt'), 'line one\nline two\n');
  writeFileSync(join(dir, 'outside.txt'), 'not yours');
  const home = join(dir, 'home');
  const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data') };
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  clients.push(client);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', 'serve', ...flags], cwd: workspace, env, stderr: 'pipe' }));
  return { client, workspace, dir };
}

const text = (result: Record<string, unknown>) => (result.content as Array<{ text: string }>).map((block) => block.text).join('\n');

describe('vibe-agent mcp serve', () => {
  it('offers only the tools that read by default, says so, reads inside the workspace and refuses outside it and writes', async () => {
    const { client, workspace } = await serve();
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['read_file', 'grep', 'list_files']));
    expect(names).not.toContain('write_file');
    expect(names).not.toContain('bash');
    const readFile = tools.find((tool) => tool.name === 'read_file')!;
    expect(readFile.description).toContain('only tools that read are offered; start it with --permission-mode auto-edit');
    expect(readFile.inputSchema).toMatchObject({ type: 'object', properties: { path: { type: 'string' } } });
    expect(readFile.annotations).toMatchObject({ readOnlyHint: true });

    const read = await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });
    expect(read.isError).toBe(false);
    expect(text(read)).toContain('line two');
    const outside = await client.callTool({ name: 'read_file', arguments: { path: '../outside.txt' } });
    expect(outside.isError).toBe(true);
    expect(text(outside)).not.toContain('not yours');
    const write = await client.callTool({ name: 'write_file', arguments: { path: 'new.txt', content: 'x' } });
    expect(write.isError).toBe(true);
    expect(text(write)).toContain('write_file is not offered by this server');
    expect(() => readFileSync(join(workspace, 'new.txt'))).toThrow();
  });

  it('--permission-mode auto-edit offers file edits (not the shell); the write lands in the workspace', async () => {
    const { client, workspace } = await serve('--permission-mode', 'auto-edit');
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('write_file');
    expect(names).not.toContain('bash');
    const write = await client.callTool({ name: 'write_file', arguments: { path: 'new.txt', content: 'written over MCP\n' } });
    expect(write.isError).toBe(false);
    expect(readFileSync(join(workspace, 'new.txt'), 'utf8')).toBe('written over MCP\n');
  });

  it('--yes offers every tool, as --permission-mode yolo does: bash is listed and runs in the workspace', async () => {
    for (const flags of [['--yes'], ['--permission-mode', 'yolo']]) {
      const { client, workspace } = await serve(...flags);
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names, flags.join(' ')).toEqual(expect.arrayContaining(['bash', 'write_file', 'read_file']));
      expect(tools.find((tool) => tool.name === 'bash')!.description).toContain('Served by vibe-agent with --yes: every tool is offered');
      const ran = await client.callTool({ name: 'bash', arguments: { command: 'cat notes.txt && pwd' } });
      expect(ran.isError, text(ran)).toBe(false);
      expect(text(ran)).toContain('line two');
      expect(text(ran)).toContain(workspace);
    }
  });

  it('a result past the cap names its stored id, and the client pages every character back with read_output', async () => {
    const { client } = await serve('--yes');
    const expected = Array.from({ length: 20_000 }, (_, i) => `${i + 1}\n`).join('');
    const ran = text(await client.callTool({ name: 'bash', arguments: { command: 'seq 1 20000' } }));
    const id = /omitted of [\d,]+; full output saved as output id (out_[0-9a-f]{12}); call read_output to see more/.exec(ran)![1]!;
    let whole = '';
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const slice = text(await client.callTool({ name: 'read_output', arguments: { id, offset } }));
      const header = /^\[output out_[0-9a-f]{12}: characters \d+–\d+ of \d+; (?:more from offset (\d+)|end of output)\]\n/.exec(slice)!;
      whole += slice.slice(header[0].length);
      offset = header[1] === undefined ? undefined : Number(header[1]);
    }
    expect(whole).toBe(expected);
  });
});
