/** Files that never end: FIFOs and links to /dev/zero where the agent reads config, ignore rules, memory. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/cli/settings/config.js';
import { buildSystemPrompt } from '../src/memory/build-system-prompt.js';
import { createSearchTools } from '../src/tools/coding/search-tools.js';
import { createFileTools } from '../src/tools/coding/file-tools.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { ANYWHERE, readOwnText } from '../src/workspace/read-own-file.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { spawnCli } from './support/cli-process.js';
import { runScenario } from './support/harness.js';

const temps: string[] = [];
const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Each way a file can never end, made at `path`. */
const TRAPS = {
  fifo: (path: string) => execFileSync('mkfifo', [path]),
  'link to /dev/zero': (path: string) => symlinkSync('/dev/zero', path),
  'link to /dev/urandom': (path: string) => symlinkSync('/dev/urandom', path),
  'link to a FIFO': (path: string) => {
    execFileSync('mkfifo', [`${path}.pipe`]);
    symlinkSync(`${path}.pipe`, path);
  },
};
type Trap = keyof typeof TRAPS;
const trapNames = Object.keys(TRAPS) as Trap[];

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'vibe-hostile-'));
  temps.push(root);
  mkdirSync(join(root, '.git', 'info'), { recursive: true });
  writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.ts'), 'export const needle = 1;\n');
  writeFileSync(join(root, 'notes.md'), 'needle\n');
  return root;
}

const IGNORE_FILES = ['.gitignore', '.ignore', '.rgignore', 'src/.gitignore', '.git/info/exclude'];

describe('ignore files that never end', () => {
  for (const engine of ['ripgrep', 'js'] as const) {
    for (const trap of trapNames) {
      it(`list_files and grep (${engine}) answer with a warning when every ignore file is a ${trap}`, async () => {
        const root = workspace();
        for (const name of IGNORE_FILES) TRAPS[trap](join(root, name));
        const registry = new ToolRegistry(createSearchTools({ ripgrep: engine === 'js' ? false : 'auto' }));
        const listed = await registry.invoke({ id: 'l', name: 'list_files', arguments: '{}' }, { workspace: root });
        expect(listed.status).toBe('ok');
        expect(listed.content).toMatch(/^notes\.md\nsrc\/a\.ts\n/);
        expect(listed.content).toMatch(/\[Skipped .*\.gitignore is a (named pipe \(FIFO\)|character device), not a regular file; it was not read, so its rules were not applied\.\]/);
        const grepped = await registry.invoke({ id: 'g', name: 'grep', arguments: '{"pattern":"needle"}' }, { workspace: root });
        expect(grepped.content).toMatch(/^notes\.md:1:1: needle\nsrc\/a\.ts:1:14: export const needle = 1;/);
        expect(grepped.content).toContain('[Skipped ');
      });
    }
  }

  it('never opens FIFOs or devices met in the tree, and refuses one named as the path', async () => {
    const root = workspace();
    execFileSync('mkfifo', [join(root, 'src', 'pipe.ts')]);
    symlinkSync('/dev/zero', join(root, 'src', 'zero.ts'));
    const registry = new ToolRegistry([...createSearchTools({ ripgrep: false }), ...createFileTools()]);
    const grepped = await registry.invoke({ id: 'g', name: 'grep', arguments: '{"pattern":"needle"}' }, { workspace: root });
    expect(grepped.content).toContain('src/a.ts:1:14');
    const named = await registry.invoke({ id: 'n', name: 'grep', arguments: '{"pattern":"needle","path":"src/pipe.ts"}' }, { workspace: root });
    expect(named.content).toMatch(/not a regular file or directory/);
    for (const path of ['src/pipe.ts', 'src/zero.ts']) {
      const read = await registry.invoke({ id: 'r', name: 'read_file', arguments: JSON.stringify({ path }) }, { workspace: root });
      expect(read.isError).toBe(true);
      expect(read.content).toMatch(/not a regular file|outside the workspace/);
    }
  });

  it('an abort during a walk ends the run as aborted', async () => {
    const root = workspace();
    for (let i = 0; i < 400; i++) mkdirSync(join(root, 'many', `d${i}`), { recursive: true });
    TRAPS.fifo(join(root, '.gitignore'));
    const controller = new AbortController();
    const { result } = await runScenario([{ toolCalls: [{ id: 'l', name: 'list_files', arguments: {} }] }, { text: 'never asked for' }], {
      toolList: createSearchTools({ ripgrep: false }),
      workspace: root,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'tool_call_start') controller.abort(new Error('Ctrl-C'));
      },
    });
    expect(result.stopReason).toBe('aborted');
  });
});

describe('config and memory files that never end', () => {
  it.each(trapNames)('a project config, AGENTS.md and memory that are a %s are skipped with a warning', async (trap) => {
    const root = workspace();
    const home = join(root, 'home');
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') };
    mkdirSync(join(root, '.vibe-agent'));
    TRAPS[trap](join(root, '.vibe-agent', 'config.json'));
    TRAPS[trap](join(root, '.vibe-agent', 'memory.md'));
    TRAPS[trap](join(root, 'AGENTS.md'));
    const warnings: string[] = [];
    expect(await loadConfig(root, env, (message) => warnings.push(message))).toEqual({});
    const prompt = buildSystemPrompt({ workspace: root, cwd: root, env, warn: (message) => warnings.push(message), base: 'base' });
    expect(prompt).toBe('base');
    expect(warnings.join('\n')).toMatch(/config .*config\.json is a .*, not a regular file; it was not read, so it is ignored\./);
    // A link to a device leads outside the workspace, so project memory skips it before reading.
    if (trap === 'fifo' || trap === 'link to a FIFO') {
      expect(warnings.join('\n')).toMatch(/memory file .*AGENTS\.md is a named pipe \(FIFO\), not a regular file; it was not read, so it is skipped/);
      expect(warnings.join('\n')).toMatch(/memory file .*memory\.md is a named pipe .*so it is skipped/);
    }
  });

  it('refuses a file over the cap, and reads one within it', () => {
    const root = workspace();
    writeFileSync(join(root, 'big'), 'x'.repeat(2000));
    expect(() => readOwnText(join(root, 'big'), { within: ANYWHERE, maxBytes: 1000 })).toThrow(/larger than 1000 bytes/);
    expect(readOwnText(join(root, 'big'), { within: [root], maxBytes: 2000 })).toHaveLength(2000);
  });

  it('the CLI starts, warns and answers in a repository whose config, ignore files and AGENTS.md are FIFOs', async () => {
    const root = workspace();
    const home = join(root, 'home');
    mkdirSync(join(root, '.vibe-agent'));
    for (const name of ['.vibe-agent/config.json', 'AGENTS.md', ...IGNORE_FILES]) TRAPS.fifo(join(root, name));
    const server = await startChatServer([{ toolCalls: [{ name: 'list_files', arguments: {} }] }, { text: 'done' }]);
    servers.push(server);
    const ran = await spawnCli(['-p', 'list', '--tools', 'list_files', '--json'], {
      cwd: root,
      env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' },
    });
    expect(ran.stderr).toMatch(/warning: config .*config\.json is a named pipe \(FIFO\)/);
    expect(ran.stderr).toMatch(/warning: memory file .*AGENTS\.md is a named pipe/);
    expect(ran.code).toBe(0);
    const toolMessage = server.requests[1]!.messages.find((m) => m.role === 'tool')!;
    expect(String(toolMessage.content)).toMatch(/notes\.md[\s\S]*\[Skipped .*\.gitignore is a named pipe/);
  });
});
