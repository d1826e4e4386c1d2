import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { spawnCli } from './support/cli-process.js';

// What a one-shot run compiles before its first request is most of its start-up (bench/side-by-side.bench.mjs).
// The module-log hook lists every file the run imports; the bundle's chunks name their sources in comments.
const REGISTER = join(import.meta.dirname, 'fixtures', 'module-log', 'register.mjs');
// And the Node builtins it loaded (process.moduleLoadList, written at exit).
const BUILTINS = join(import.meta.dirname, 'fixtures', 'module-log', 'builtins.mjs');
const MCP_SERVER = join(import.meta.dirname, 'support', 'mcp-test-server.mjs');
const root = mkdtempSync(join(tmpdir(), 'vibe-start-load-'));
const chats: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(chats.splice(0).map((chat) => chat.close()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
/** One `go` run; `files` are written into the workspace, `homeFiles` into the home. */
async function run(args: string[], files: Record<string, string> = {}, homeFiles: Record<string, string> = {}, replies: Parameters<typeof startChatServer>[0] = [{ text: 'fine' }]) {
  const chat = await startChatServer(replies);
  chats.push(chat);
  const dir = join(root, `case-${++count}`);
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  for (const [base, written] of [[workspace, files], [join(dir, 'home'), homeFiles]] as const) {
    for (const [path, text] of Object.entries(written)) {
      mkdirSync(join(base, path, '..'), { recursive: true });
      writeFileSync(join(base, path), text);
    }
  }
  const log = join(dir, 'modules.txt');
  const builtinLog = join(dir, 'builtins.txt');
  // VIBE_MCP_WAIT: the first request waits for MCP servers still starting, 5 s by default; a loaded
  // machine can take longer to start one, and the MCP case checks its tool is in that request.
  const env = { VIBE_MCP_WAIT: '60', HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'home', '.config'), XDG_DATA_HOME: join(dir, 'home', 'data'), VIBE_MODEL: 'test-model', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: chat.url, PATH: `${join(import.meta.dirname, '..', 'node_modules', '.bin')}:${process.env.PATH ?? ''}` };
  const ran = await spawnCli(['go', '--no-session', ...args], { cwd: workspace, env: { ...env, NODE_OPTIONS: `--import ${REGISTER} --import ${BUILTINS}`, MODULE_LOG: log, BUILTIN_LOG: builtinLog } });
  expect(ran.code, ran.stderr).toBe(0);
  expect(ran.stdout.trim()).toBe('fine');
  // Up to the first request: what loads while it is out is the warm-up, not start-up (builtins.mjs).
  const lines = readFileSync(log, 'utf8').split('\n');
  const sent = lines.indexOf('--- first request sent');
  expect(sent, 'the preload saw the first request go out').toBeGreaterThan(0);
  const files_ = [...new Set(lines.slice(0, sent))].filter((url) => url.startsWith('file:') && url.includes('/dist/cli/'));
  const code = files_.map((url) => readFileSync(new URL(url), 'utf8')).join('\n');
  const logged = readFileSync(builtinLog, 'utf8').split('\n');
  const loaded = logged.slice(0, logged.indexOf('--- first request sent'));
  const requiredInRun = logged.filter((entry) => entry.startsWith('Required ')).join('\n');
  const builtins = new Set(loaded.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => entry.slice('NativeModule '.length)));
  const required = loaded.filter((entry) => entry.startsWith('Required ')).join('\n');
  // The whole run's bundle files, the warm-up and the tool rounds included.
  const codeInRun = [...new Set(lines)].filter((url) => url.startsWith('file:') && url.includes('/dist/cli/')).map((url) => readFileSync(new URL(url), 'utf8')).join('\n');
  // Bundled code names its sources in comments; packages loaded with require() on demand are in the CommonJS cache.
  return {
    chat,
    files: files_,
    has: (marker: string) => code.includes(marker) || required.includes(marker),
    requiredInRun: (marker: string) => requiredInRun.includes(marker),
    loadedInRun: (marker: string) => codeInRun.includes(marker) || requiredInRun.includes(marker),
    builtins,
  };
}

describe('what a one-shot run loads before its first request', () => {
  it('--tools calculator: about twenty bundle files, no tool code (the schema comes from the build-time spec), no yaml, minisearch or ignore', async () => {
    const { chat, files, has } = await run(['--tools', 'calculator']);
    expect(chat.requests[0]!.tools!.map((tool) => tool.function.name)).toEqual(['calculator', 'read_output']);
    expect(chat.requests[0]!.tools![0]!.function.parameters).toMatchObject({ type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] });
    // A few chunks hold the run's whole static closure; before, it was cut into ~60 (bundle-cli.mjs).
    expect(files.length).toBeGreaterThan(5);
    // 28 since issue 34: the byte budget, the SSE re-framer with eventsource-parser and the error-code
    // classer are shared by every provider, doctor, MCP, search and the language servers, so esbuild
    // gives them chunks of their own (~0.6 ms of load each, bench/README.md's start-up figures).
    expect(files.length).toBeLessThanOrEqual(28);
    // The bundle's openai client builds chat alone (scripts/bundle-cli.mjs, openai-chat-only).
    expect(has('node_modules/openai/resources/chat/completions/completions.mjs')).toBe(true);
    for (const resource of ['beta/', 'responses/', 'realtime/', 'vector-stores/', 'fine-tuning/', 'audio/', 'embeddings.mjs', 'batches.mjs']) {
      expect(has(`node_modules/openai/resources/${resource}`), resource).toBe(false);
    }
    expect(has('node_modules/openai/lib/AssistantStream.mjs')).toBe(false);
    for (const absent of ['// dist/tools/builtin/calculator.js', '// dist/tools/builtin/expression.js', '// dist/tools/coding/files/', '// dist/tools/coding/edit/', '// dist/tools/coding/search/', '// dist/tools/coding/shell/bash.js', 'node_modules/yaml/', 'node_modules/minisearch/', 'node_modules/ignore/', 'dist/knowledge/docs-index.js', 'node_modules/zod/v4/locales/de.js', 'node_modules/zod/v4/classic/from-json-schema.js']) {
      expect(has(absent), absent).toBe(false);
    }
  });

  it('--tools calculator: nothing of MCP, hooks, subagents, config schema, checkpoints, diagnostics, images, knowledge or compaction; no child_process or readline', async () => {
    const { has, builtins } = await run(['--tools', 'calculator']);
    const absent = [
      // MCP: the client, its SDK, transports and OAuth (node:http, child_process)
      '// dist/mcp/mcp-servers.js', '// dist/mcp/mcp-connection.js', '// dist/mcp/stdio-transport.js', '// dist/mcp/oauth-provider.js', '// dist/mcp/server-sources.js', 'node_modules/@modelcontextprotocol/',
      // hooks (their zod schema, the runner's child processes)
      '// dist/hooks/hooks.js', '// dist/hooks/hook-config.js', '// dist/hooks/run-hook.js', '// dist/hooks/hooked-registry.js', '// dist/hooks/foreign-hooks.js',
      // subagents, the config files' schema (no config file here), checkpoints (no session)
      '// dist/agents/', '// dist/cli/settings/config-schema.js', '// dist/checkpoints/with-checkpoints.js', '// dist/checkpoints/shadow-git.js', '// dist/checkpoints/session-checkpoints.js',
      // the session store (--no-session), the edit checker and its line diff, prompt-json, images, knowledge, compaction
      '// dist/session/session-store.js', '// dist/session/session-writer.js', '// dist/diagnostics/diagnostics-observer.js', '// dist/diagnostics/run-checker.js', '// dist/diagnostics/tsc-server.js', 'node_modules/diff/',
      '// dist/providers/prompt-json/', '// dist/images/load-image.js', '// dist/images/image-limits.js', '// dist/knowledge/', '// dist/context/compact-history.js', '// dist/cli/display/json-lines.js',
      // glob matching and TOML: required when a rule, a skill's pattern or a .toml command needs them
      'node_modules/picomatch/', 'node_modules/smol-toml/',
      // zod and every tool's code: the first request offers the tools from their build-time specs
      'node_modules/zod/', '// dist/tools/define-tool.js', '// dist/context/read-output.js', '// dist/session/record-schemas.js',
    ];
    for (const marker of absent) expect(has(marker), marker).toBe(false);
    // Node's own modules that only asking (readline), MCP stdio, hooks, checkers and bubblewrap (child_process), fetch_url (https, dns) need.
    for (const builtin of ['child_process', 'dgram', 'readline', 'readline/promises', 'https', 'dns']) expect(builtins.has(builtin), builtin).toBe(false);
    // The preload saw the run: the modules every run needs are there.
    expect(builtins.has('fs')).toBe(true);
  });

  it('one MCP server and one hook configured: both load and work (the tool in the first request, the hook\'s words with the prompt)', async () => {
    const config = { mcpServers: { notes: { command: process.execPath, args: [MCP_SERVER] } }, hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo the-hook-ran' }] }] } };
    const { chat, has } = await run(['--tools', 'calculator'], {}, { '.config/vibe-agent/config.json': JSON.stringify(config) });
    expect(chat.requests[0]!.tools!.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(['calculator', 'mcp__notes__add']));
    expect(JSON.stringify(chat.requests[0]!.messages.at(-1))).toContain('the-hook-ran');
    for (const marker of ['// dist/mcp/mcp-servers.js', '// dist/hooks/hooks.js', '// dist/cli/settings/config-schema.js']) expect(has(marker), marker).toBe(true);
  });

  it('a deny rule with a glob still holds: picomatch is required when the rule first meets a path', async () => {
    const config = { permissions: { deny: ['read_file(secret/**)'] } };
    const replies = [{ toolCalls: [{ name: 'read_file', arguments: { path: 'secret/key.txt' } }] }, { text: 'fine' }];
    const { chat, has, requiredInRun } = await run(['--tools', 'read_file'], { 'secret/key.txt': 'hunter2' }, { '.config/vibe-agent/config.json': JSON.stringify(config) }, replies);
    const result = JSON.stringify(chat.requests[1]!.messages.at(-1));
    expect(result).toContain('read_file(secret/**)');
    expect(result).not.toContain('hunter2');
    expect(has('node_modules/picomatch/')).toBe(false);
    expect(requiredInRun('node_modules/picomatch/')).toBe(true);
  });

  it('a valid call to a built-in tool is checked by its compiled validator: its code loads, zod does not', async () => {
    const replies = [{ toolCalls: [{ name: 'calculator', arguments: { expression: '17 * 23', extra: 1 } }] }, { text: 'fine' }];
    const { chat, loadedInRun } = await run(['--tools', 'calculator'], {}, {}, replies);
    expect(JSON.stringify(chat.requests[1]!.messages.at(-1))).toContain('17 * 23 = 391');
    expect(loadedInRun('// dist/tools/builtin/calculator.js')).toBe(true);
    expect(loadedInRun('// dist/tools/validators/calculator.js')).toBe(true);
    expect(loadedInRun('// dist/tools/validators/read_file.js')).toBe(false);
    expect(loadedInRun('node_modules/zod/')).toBe(false);
  });

  it('an invalid call to a built-in tool loads zod, for the message the model gets', async () => {
    const replies = [{ toolCalls: [{ name: 'calculator', arguments: { expression: 42 } }] }, { text: 'fine' }];
    const { chat, loadedInRun } = await run(['--tools', 'calculator'], {}, {}, replies);
    expect(JSON.stringify(chat.requests[1]!.messages.at(-1))).toContain('Invalid arguments for calculator: expression: Invalid input: expected string, received number');
    expect(loadedInRun('node_modules/zod/')).toBe(true);
  });

  it('the default tools: their schemas all in the first request, none of their code, still no yaml or minisearch', async () => {
    const { chat, has } = await run([]);
    expect(chat.requests[0]!.tools!.map((tool) => tool.function.name)).toEqual(['read_file', 'write_file', 'edit_file', 'list_files', 'grep', 'bash', 'bash_output', 'bash_kill', 'fetch_url', 'remember', 'read_output']);
    expect(chat.requests[0]!.tools![0]!.function.parameters).toMatchObject({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] });
    expect(has('// dist/tools/coding/files/read-file.js')).toBe(false);
    expect(has('// dist/tools/coding/shell/bash.js')).toBe(false);
    expect(has('node_modules/yaml/')).toBe(false);
    expect(has('node_modules/minisearch/')).toBe(false);
  });

  it('a TypeScript workspace with its language server found: code_nav offered from its spec, nothing of the client or vscode-jsonrpc loaded, no server started', async () => {
    const { chat, has } = await run([], { 'src/a.ts': 'export const a = 1;\n' });
    expect(chat.requests[0]!.tools!.map((tool) => tool.function.name)).toContain('code_nav');
    for (const absent of ['// dist/lsp/lsp-client.js', '// dist/lsp/lsp-servers.js', '// dist/lsp/code-nav-tool.js', 'node_modules/vscode-jsonrpc/', 'node_modules/vscode-languageserver-protocol/']) expect(has(absent), absent).toBe(false);
  });

  it('a skill whose front matter only the yaml package reads still reaches the system prompt (it loads on demand)', async () => {
    const skill = (name: string, front: string) => [`.vibe-agent/skills/${name}/SKILL.md`, `---\n${front}\n---\nDo it.\n`];
    const { chat } = await run(['--tools', 'calculator,skill'], Object.fromEntries([skill('plain', 'name: plain\ndescription: Plain text, read without the package.'), skill('quoted', 'name: quoted\ndescription: "Quoted: needs the yaml package"')]));
    const system = String(chat.requests[0]!.messages[0]!.content);
    expect(system).toContain('plain: Plain text, read without the package.');
    expect(system).toContain('quoted: Quoted: needs the yaml package');
  });
});
