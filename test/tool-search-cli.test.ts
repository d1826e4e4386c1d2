/**
 * Tool search in a CLI run: five MCP servers (200 tools) in the user config, the built CLI against
 * the local Chat Completions server. `--json` carries the deferral and the search; the session
 * file's trace shows them with the tokens saved per request; `--tool-search never` sends every schema.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTrace } from '../src/trace/build-trace.js';
import { readSessionFile } from '../src/session/read-session.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { CLI_SESSION_TIMEOUT_MS, cliHome, type CliHome } from './support/cli-process.js';
import { DOMAINS, MANY_TOOLS_SERVER } from './support/many-tools.js';

const open: Array<ChatServer | CliHome> = [];
afterEach(async () => {
  for (const item of open.splice(0)) 'close' in item ? await item.close() : item.cleanup();
});

function home(): CliHome {
  const made = cliHome();
  open.push(made);
  const mcpServers = Object.fromEntries(DOMAINS.map((domain) => [domain, { command: process.execPath, args: [MANY_TOOLS_SERVER, '--domain', domain] }]));
  mkdirSync(join(made.env.XDG_CONFIG_HOME, 'vibe-agent'), { recursive: true });
  writeFileSync(join(made.env.XDG_CONFIG_HOME, 'vibe-agent', 'config.json'), JSON.stringify({ mcpServers }));
  return made;
}

const INVOICE = 'mcp__billing__create_invoice';

describe('tool search in a CLI run', { timeout: CLI_SESSION_TIMEOUT_MS }, () => {
  it('defers the 200 MCP tools (past 10% of a 200k window), records the search and the call in --json and the session, and the trace shows what was saved', async () => {
    const chat = await startChatServer([
      { toolCalls: [{ name: 'tool_search', arguments: { query: 'create invoice', limit: 2 } }] },
      { toolCalls: [{ name: 'call_tool', arguments: { name: INVOICE, arguments: { title: 'March' } } }] },
      { text: 'Filed.' },
    ]);
    open.push(chat);
    const cli = home();
    const ran = await cli.run(['File the March invoice.', '--json', '--yes', '--tools', 'read_file', '--model', 'gpt-5', '--context-window', '200000'], { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: chat.url, VIBE_MCP_WAIT: '60' });
    expect(ran.code).toBe(0);
    expect(chat.violations).toEqual([]);
    expect(chat.requests.map((body) => (body.tools ?? []).map((tool) => tool.function.name))[0]).toEqual(['read_file', 'read_output', 'tool_search', 'call_tool']);
    expect(new Set(chat.requests.map((body) => JSON.stringify(body.tools))).size).toBe(1);

    const events = ran.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });
    const notes = events.filter((event) => event.type === 'tool_search');
    expect(notes[0]).toMatchObject({ action: 'deferred', turn: 1 });
    expect((notes[0]!.deferred as string[]).length).toBe(200);
    expect(notes[0]!.savedTokens as number).toBeGreaterThan(20_000);
    expect(notes[1]).toMatchObject({ action: 'search', turn: 1, query: 'create invoice', results: [INVOICE, expect.any(String)], loaded: [INVOICE, expect.any(String)] });
    expect(events.find((event) => event.type === 'tool_call_end' && event.name === INVOICE)).toMatchObject({ output: 'billing.create_invoice {"title":"March"}', status: 'ok' });

    const [file] = cli.sessionFiles();
    const data = await buildTrace(readSessionFile(cli.sessionPath(file!)), { file: file! });
    const turns = data.turns;
    expect(turns).toHaveLength(3);
    expect(turns[0]!.toolSearch).toMatchObject({ savedTokens: notes[0]!.savedTokens, deferred: expect.arrayContaining([INVOICE]), searches: [{ query: 'create invoice' }] });
    // Every later request saves as much: the offer does not change.
    expect(turns.map((turn) => turn.toolSearch?.savedTokens)).toEqual([notes[0]!.savedTokens, notes[0]!.savedTokens, notes[0]!.savedTokens]);
    expect(turns[0]!.notes.join('\n')).toMatch(/Tool search: 200 tools deferred .*not sent on this and every later request/);
    expect(turns[0]!.notes.join('\n')).toContain(`tool_search "create invoice": ${INVOICE}`);
  });

  it('--tool-search never sends every schema; a wrong value is a usage error', async () => {
    const chat = await startChatServer([{ text: 'ok' }]);
    open.push(chat);
    const cli = home();
    const ran = await cli.run(['hi', '--no-session', '--tools', 'read_file', '--model', 'gpt-5', '--context-window', '200000', '--tool-search', 'never'], { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: chat.url, VIBE_MCP_WAIT: '60' });
    expect(ran.code).toBe(0);
    expect(chat.requests[0]!.tools).toHaveLength(202);
    const wrong = await cli.run(['hi', '--no-session', '--tool-search', 'sometimes'], { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: chat.url });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--tool-search: expected auto, auto:N');
  });
});
