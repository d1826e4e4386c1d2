import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { spawnCli } from './support/cli-process.js';
import { startMcpHttpServer, type McpHttpServer } from './support/mcp-http-server.js';
import { startMcpOAuthServer, type McpOAuthServer } from './support/mcp-oauth-server.js';

const SCRIPT = join(import.meta.dirname, 'support', 'mcp-test-server.mjs');
const TOOLS = 'echo, add, big, hang, crash, picture, fails';
const root = mkdtempSync(join(tmpdir(), 'vibe-mcp-add-'));
const closers: Array<ChatServer | McpHttpServer | McpOAuthServer> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((server) => server.close()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
/** A fresh home and workspace; `cli` runs the built CLI in the workspace with that home. */
function setup(files: Record<string, string> = {}) {
  const dir = join(root, `case-${++count}`);
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  const env = { HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'home', '.config'), XDG_DATA_HOME: join(dir, 'home', 'data'), VIBE_MODEL: 'test-model', OPENAI_API_KEY: 'sk-test' };
  const userConfig = join(env.XDG_CONFIG_HOME, 'vibe-agent', 'config.json');
  const cli = (args: string[], extra: Record<string, string> = {}) => spawnCli(args, { cwd: workspace, env: { ...env, ...extra } });
  return { dir, workspace, env, userConfig, cli };
}

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { mcpServers: Record<string, unknown> } & Record<string, unknown>;

describe('vibe-agent mcp add | get | list | remove', () => {
  it('a stdio server: added after it started and listed its tools, then listed, shown, removed', async () => {
    const { userConfig, cli } = setup();
    const added = await cli(['mcp', 'add', 'notes', '-e', 'NOTES_DIR=/tmp/notes', '--', process.execPath, SCRIPT, '--name', 'notes']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`added notes (stdio): 7 tools: ${TOOLS}`);
    expect(json(userConfig).mcpServers).toEqual({ notes: { type: 'stdio', command: process.execPath, args: [SCRIPT, '--name', 'notes'], env: { NOTES_DIR: '/tmp/notes' } } });

    const listed = await cli(['mcp', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/notes\s+ready\s+7\s/);

    const shown = await cli(['mcp', 'get', 'notes']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`command: ${process.execPath} ${SCRIPT} --name notes`);
    expect(shown.stdout).toContain('NOTES_DIR=/tmp/notes');
    expect(shown.stdout).toContain('~/.config/vibe-agent/config.json');
    expect(shown.stdout).toContain('status:  enabled; starts in every run (your own config)');

    const again = await cli(['mcp', 'add', 'notes', '--', process.execPath, SCRIPT]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('"notes" is already in');

    const removed = await cli(['mcp', 'remove', 'notes']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(json(userConfig).mcpServers).toEqual({});
    const gone = await cli(['mcp', 'get', 'notes']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('no MCP server named "notes"');
  });

  it('an HTTP server: verified over streamable HTTP with its headers sent, written with them; a URL alone means http', async () => {
    const http = await startMcpHttpServer('streamable');
    closers.push(http);
    const { userConfig, cli } = setup();
    const added = await cli(['mcp', 'add', '--transport', 'http', 'web', http.url, '--header', 'X-Team: blue', '-H', 'Authorization: Bearer ${WEB_TOKEN}'], { WEB_TOKEN: 'tok-123' });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`added web (http): 7 tools: ${TOOLS}`);
    expect(http.headers.some((headers) => headers['x-team'] === 'blue' && headers.authorization === 'Bearer tok-123')).toBe(true);
    expect(json(userConfig).mcpServers.web).toEqual({ type: 'http', url: http.url, headers: { 'X-Team': 'blue', Authorization: 'Bearer ${WEB_TOKEN}' } });

    const bare = await cli(['mcp', 'add', 'web2', http.url]);
    expect(bare.code, bare.stderr).toBe(0);
    expect(json(userConfig).mcpServers.web2).toEqual({ type: 'http', url: http.url });

    const sse = await startMcpHttpServer('sse-only');
    closers.push(sse);
    const legacy = await cli(['mcp', 'add', '-t', 'sse', 'legacy', sse.url]);
    expect(legacy.code, legacy.stderr).toBe(0);
    expect(legacy.stdout).toContain('added legacy (sse): 7 tools');

    const before = readFileSync(userConfig, 'utf8');
    const down = await cli(['mcp', 'add', '--transport', 'http', 'down', 'http://127.0.0.1:1/mcp']);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('down (http) did not start');
    expect(readFileSync(userConfig, 'utf8')).toBe(before);
  });

  it('an HTTP server that asks for OAuth: add prints the sign-in address, lists the tools once signed in; mcp list then uses the kept token', async () => {
    const oauth = await startMcpOAuthServer();
    closers.push(oauth);
    const { cli, workspace, env } = setup();
    let visit: Promise<Response> | undefined;
    const added = await spawnCli(['mcp', 'add', '--transport', 'http', 'secure', oauth.url], {
      cwd: workspace,
      env,
      onSpawn: (child) => {
        let seen = '';
        child.stderr!.on('data', (data) => {
          seen += data;
          const url = /open this address to sign in: (\S+)/.exec(seen)?.[1];
          if (url && !visit) visit = fetch(url, { redirect: 'manual' }).then((authorize) => fetch(authorize.headers.get('location') ?? ''));
        });
      },
    });
    expect(visit).toBeDefined();
    expect((await visit!).status).toBe(200);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/added secure \(http\): \d+ tools/);
    const listed = await cli(['mcp', 'list']);
    expect(listed.stdout).toMatch(/secure\s+ready/);
    expect(listed.stderr).not.toContain('sign in');
    expect(oauth.provider.grants).toEqual(['authorization_code']);
  });

  it('add-json: an entry in .mcp.json shape, checked like add; JSON that does not parse is a usage error naming where', async () => {
    const { workspace, cli } = setup();
    const entry = { command: process.execPath, args: [SCRIPT], timeout: 20000 };
    const added = await cli(['mcp', 'add-json', '--scope', 'project', 'jsoned', JSON.stringify(entry)]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('added jsoned (stdio): 7 tools');
    expect(json(join(workspace, '.mcp.json')).mcpServers).toEqual({ jsoned: entry });

    const broken = await cli(['mcp', 'add-json', 'other', '{"command": "node",\n "args": [}']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('line 2, column');
    const notAnEntry = await cli(['mcp', 'add-json', 'other', '{"url": 3}']);
    expect(notAnEntry.code).toBe(2);
    expect(notAnEntry.stderr).toContain('not one vibe-agent can start');
  });

  it('a server that does not start: exit 1 with its error, and the config is byte-identical; --no-verify writes it anyway', async () => {
    const original = '{\n\t"model": "gpt-x",   "mcpServers": { "keep": { "command": "true" } },\n\t"maxTurns": 7\n}\n';
    const { userConfig, cli } = setup({ 'home/.config/vibe-agent/config.json': original });
    const failed = await cli(['mcp', 'add', 'broken', '--', process.execPath, SCRIPT, '--fail']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('broken (stdio) did not start');
    expect(failed.stderr).toContain('cannot open the database');
    expect(failed.stderr).toContain('Nothing was written');
    expect(readFileSync(userConfig, 'utf8')).toBe(original);

    const unverified = await cli(['mcp', 'add', '--no-verify', 'broken', '--', process.execPath, SCRIPT, '--fail']);
    expect(unverified.code, unverified.stderr).toBe(0);
    expect(unverified.stdout).toContain('not started (--no-verify)');
    const written = readFileSync(userConfig, 'utf8');
    expect(written.startsWith('{\n\t"model": "gpt-x",   "mcpServers": { "keep": { "command": "true" }, "broken": {')).toBe(true);
    expect(json(userConfig)).toMatchObject({ model: 'gpt-x', maxTurns: 7 });

    const removed = await cli(['mcp', 'remove', 'broken', '--scope', 'user']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(readFileSync(userConfig, 'utf8')).toBe(original);
  });

  it('a failing npx-like server: the "404 Not Found" line is shown first, not the notices before it', async () => {
    const { cli } = setup();
    const npmLike = [
      ...Array.from({ length: 12 }, (_, i) => `npm notice New minor version of npm available! 10.${i}.0 -> 10.9.2`),
      'npm warn exec The following package was not found and will be installed: @acme/no-such-server@1.0.0',
      'npm error code E404',
      "npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fno-such-server - Not found",
      'npm notice Changelog: https://github.com/npm/cli/releases/tag/v10.9.2',
      'npm notice To update run: npm install -g npm@10.9.2',
    ];
    const failed = await cli(['mcp', 'add', 'acme', '--', process.execPath, '-e', `process.stderr.write(${JSON.stringify(npmLike.join('\n') + '\n')}); process.exit(1)`]);
    expect(failed.code).toBe(1);
    const line = failed.stderr.split('\n').find((text) => text.includes('did not start'))!;
    expect(line).toContain('(stderr: npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fno-such-server - Not found | npm error code E404 | npm warn exec The following package was not found and will be installed: @acme/no-such-server@1.0.0)');
    expect(line).not.toContain('npm notice');
  });

  it('a config that is not JSON (or names a server twice) is never overwritten: the error names the line and column', async () => {
    const original = '{\n  "model": "gpt-x",\n  "mcpServers": {\n    "a": { "command": "x" },\n  }\n}\n';
    const { userConfig, cli } = setup({ 'home/.config/vibe-agent/config.json': original });
    for (const args of [['mcp', 'add', 'notes', '--', process.execPath, SCRIPT], ['mcp', 'remove', 'a']]) {
      const ran = await cli(args);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain(`${userConfig} is not valid JSON`);
      expect(ran.stderr).toContain('line 5, column 3');
      expect(readFileSync(userConfig, 'utf8')).toBe(original);
    }
    expect(readdirSync(join(userConfig, '..'))).toEqual(['config.json']);

    const twice = '{ "mcpServers": { "a": { "command": "x" }, "a": { "command": "y" } } }';
    writeFileSync(userConfig, twice);
    const ambiguous = await cli(['mcp', 'remove', 'a']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('has "a" twice in "mcpServers"');
    expect(readFileSync(userConfig, 'utf8')).toBe(twice);
  });

  it("a project's .mcp.json that is a link leading out of the workspace is not written through", async () => {
    const outside = '{ "mcpServers": {} }\n';
    const { dir, workspace, cli } = setup({ 'elsewhere.json': outside });
    symlinkSync(join(dir, 'elsewhere.json'), join(workspace, '.mcp.json'));
    const ran = await cli(['mcp', 'add', '--scope', 'project', '--no-verify', 'lint', '--', 'true']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('leads outside');
    expect(readFileSync(join(dir, 'elsewhere.json'), 'utf8')).toBe(outside);
  });

  it('names: an invalid one is a usage error; one another file defines is refused; --force replaces in the same file', async () => {
    const { workspace, userConfig, cli } = setup({ 'workspace/.mcp.json': JSON.stringify({ mcpServers: { shared: { command: 'true' } } }) });
    for (const name of ['a b', 'two__parts', '_lead', 'x'.repeat(49)]) {
      const ran = await cli(['mcp', 'add', '--no-verify', name, '--', 'true']);
      expect(ran.code, name).toBe(2);
      expect(ran.stderr).toContain('is not a valid server name');
    }
    const taken = await cli(['mcp', 'add', 'shared', '--', process.execPath, SCRIPT]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain(`already configured in ${join(workspace, '.mcp.json')}`);
    expect(() => readFileSync(userConfig)).toThrow();

    const first = await cli(['mcp', 'add', '--no-verify', 'mine', '--', 'first']);
    expect(first.code, first.stderr).toBe(0);
    const forced = await cli(['mcp', 'add', '--force', 'mine', '--', process.execPath, SCRIPT]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('replaced mine (stdio): 7 tools');
    expect(json(userConfig).mcpServers).toEqual({ mine: { type: 'stdio', command: process.execPath, args: [SCRIPT] } });
  });

  it('remove: from the only scope that has it; a name in both scopes needs --scope; a Codex server is named, not edited', async () => {
    const entry = { command: 'true' };
    const { workspace, userConfig, cli } = setup({
      'home/.config/vibe-agent/config.json': JSON.stringify({ mcpServers: { both: entry, mine: entry } }),
      'workspace/.mcp.json': JSON.stringify({ mcpServers: { both: entry } }),
      'home/.codex/config.toml': '[mcp_servers.codexed]\ncommand = "true"\n',
    });
    const ambiguous = await cli(['mcp', 'remove', 'both']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('say which with --scope user or --scope project');
    const project = await cli(['mcp', 'remove', 'both', '--scope', 'project']);
    expect(project.code, project.stderr).toBe(0);
    expect(json(join(workspace, '.mcp.json')).mcpServers).toEqual({});
    expect(json(userConfig).mcpServers).toEqual({ both: entry, mine: entry });
    const only = await cli(['mcp', 'remove', 'mine']);
    expect(only.code, only.stderr).toBe(0);
    expect(json(userConfig).mcpServers).toEqual({ both: entry });
    const foreign = await cli(['mcp', 'remove', 'codexed']);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('config.toml, which vibe-agent reads but does not edit');
  });

  it('usage errors exit 2: a server flag before "--", a header on a stdio server, --scope local, a typo in a flag', async () => {
    const { cli } = setup();
    const cases: Array<[string[], string]> = [
      [['mcp', 'add', 'x', 'node', 'srv.js', '--port', '3'], 'a server\'s own flags go after "--"'],
      [['mcp', 'add', '--header', 'A: b', 'x', '--', 'node'], '--header is for a remote server'],
      [['mcp', 'add', '--scope', 'local', 'x', '--', 'node'], '--scope local'],
      [['mcp', 'add', '--scoep', 'user', 'x', '--', 'node'], 'did you mean --scope?'],
      [['mcp', 'add', '-e', 'NOEQUALS', 'x', '--', 'node'], 'expected KEY=value'],
      [['mcp', 'add', '--transport', 'http', 'x', 'ftp://host/mcp'], 'expected an http:// or https:// URL'],
      [['mcp', 'get'], 'Usage: vibe-agent mcp get NAME'],
    ];
    for (const [args, message] of cases) {
      const ran = await cli(args);
      expect(ran.code, args.join(' ')).toBe(2);
      expect(ran.stderr).toContain(message);
    }
    const help = await cli(['mcp', 'add', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('vibe-agent mcp add [-s SCOPE] [-e KEY=value]... NAME -- COMMAND [ARGS...]');
  });

  it('secrets: a literal key is written with a warning that suggests ${VAR}, and shown masked; a project server sending a key variable needs mcpPassEnv first', async () => {
    const { workspace, userConfig, cli } = setup();
    const literal = await cli(['mcp', 'add', '-e', 'SERVICE_API_KEY=sk-live-0123456789abcdef', 'keyed', '--', process.execPath, SCRIPT, '--key', 'sk-live-argument-0123456789']);
    expect(literal.code, literal.stderr).toBe(0);
    expect(literal.stderr).toContain("-e SERVICE_API_KEY looks like a secret");
    expect(literal.stderr).toContain("-e 'SERVICE_API_KEY=${SERVICE_API_KEY}'");
    const shown = await cli(['mcp', 'get', 'keyed']);
    expect(shown.stdout).toContain('SERVICE_API_KEY=****');
    expect(shown.stdout).toContain(`${SCRIPT} --key '****'`);
    expect(shown.stdout).not.toContain('sk-live');

    const refused = await cli(['mcp', 'add', '--scope', 'project', '-e', 'DOCS_TOKEN=${DOCS_TOKEN}', 'docs', '--', process.execPath, SCRIPT]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('{"mcpPassEnv":{"docs":["DOCS_TOKEN"]}}');
    expect(() => readFileSync(join(workspace, '.mcp.json'))).toThrow();

    const config = json(userConfig);
    writeFileSync(userConfig, JSON.stringify({ ...config, mcpPassEnv: { docs: ['DOCS_TOKEN'] } }, null, 2));
    const allowed = await cli(['mcp', 'add', '--scope', 'project', '-e', 'DOCS_TOKEN=${DOCS_TOKEN}', 'docs', '--', process.execPath, SCRIPT], { DOCS_TOKEN: 'd-1' });
    expect(allowed.code, allowed.stderr).toBe(0);
    const docs = await cli(['mcp', 'get', 'docs']);
    expect(docs.stdout).toContain('DOCS_TOKEN=${DOCS_TOKEN}');
    expect(docs.stdout).toContain('status:  enabled; approved for this workspace');
  });

  it('a run after mcp add offers the servers\' tools: a user one, and a project one added here (approved, no terminal needed)', async () => {
    const chat = await startChatServer([{ text: 'fine' }]);
    closers.push(chat);
    const { cli } = setup();
    expect((await cli(['mcp', 'add', 'notes', '--', process.execPath, SCRIPT])).code).toBe(0);
    expect((await cli(['mcp', 'add', '--scope', 'project', 'team', '--', process.execPath, SCRIPT, '--name', 'team'])).code).toBe(0);
    const ran = await cli(['hello', '--no-session', '--tools', 'read_file'], { OPENAI_BASE_URL: chat.url, VIBE_MCP_WAIT: '60' });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).not.toContain('not approved');
    const offered = (chat.requests[0]?.tools ?? []).map((tool) => tool.function.name);
    expect(offered).toEqual(expect.arrayContaining(['mcp__notes__echo', 'mcp__notes__add', 'mcp__team__echo', 'mcp__team__add']));
  });
});
