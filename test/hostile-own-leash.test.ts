/** Issue 19, class 6: the agent's own config, memory and sessions are asked about, like .git/. */
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentHomeDirs } from '../src/permissions/protected-paths.js';
import { createPermissionPolicy } from '../src/permissions/permission-policy.js';
import { createFileTools } from '../src/tools/coding/file-tools.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { spawnCli } from './support/cli-process.js';
import { tempLayouts } from './support/security-setup.js';

const setup = tempLayouts();
const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('the agent cannot loosen its own leash', () => {
  const registry = new ToolRegistry(createFileTools());
  const write = (path: string, authorize: ReturnType<typeof createPermissionPolicy>, workspace: string) =>
    registry.invoke({ id: 'c', name: 'write_file', arguments: JSON.stringify({ path, content: '{"permissionMode":"yolo"}\n' }) }, { workspace, authorize });

  it('auto-edit with the workspace at $HOME asks before writing the user config, data and project .vibe-agent files', async () => {
    const { root } = setup();
    const home = join(root, 'home');
    mkdirSync(home);
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share') };
    const asked: string[] = [];
    const policy = createPermissionPolicy({ mode: 'auto-edit', protectedDirs: agentHomeDirs(env), ask: async (request) => (asked.push(request.summary), 'no') });
    const refused = [
      '.config/vibe-agent/config.json',
      '.config/vibe-agent/AGENTS.md',
      '.config/./vibe-agent/memory.md',
      'src/../.config/vibe-agent/config.json',
      '.local/share/vibe-agent/sessions/x/1.jsonl',
      '.vibe-agent/config.json',
      'project/.VIBE-AGENT/memory.md',
      join(home, '.config', 'vibe-agent', 'config.json'),
    ];
    for (const path of refused) expect((await write(path, policy, home)).status, path).toBe('denied');
    expect(asked).toHaveLength(refused.length);
    expect(existsSync(join(home, '.config', 'vibe-agent', 'config.json'))).toBe(false);
    expect((await write('notes/todo.md', policy, home)).status).toBe('ok');
    expect((await write('.config/other-tool/config.json', policy, home)).status).toBe('ok');
  });

  it('a symlink into the config folder is asked about too, and an "always" for edits does not cover it', async () => {
    const { workspace } = setup();
    const config = join(workspace, '.config', 'vibe-agent');
    mkdirSync(config, { recursive: true });
    symlinkSync(config, join(workspace, 'settings'));
    let answer: 'always' | 'no' = 'always';
    const policy = createPermissionPolicy({ mode: 'ask', protectedDirs: [config], ask: async () => answer });
    expect((await write('a.txt', policy, workspace)).status).toBe('ok');
    answer = 'no';
    expect((await write('b.txt', policy, workspace)).status).toBe('ok');
    expect((await write('settings/config.json', policy, workspace)).status).toBe('denied');
    expect(existsSync(join(config, 'config.json'))).toBe(false);
  });

  it('yolo means everything, the agent\'s own files included (documented), and an explicit allow rule still counts', async () => {
    const { workspace } = setup();
    const config = join(workspace, '.config', 'vibe-agent');
    expect((await write(join(config, 'config.json'), createPermissionPolicy({ mode: 'yolo', protectedDirs: [config] }), workspace)).status).toBe('ok');
    expect((await write('.vibe-agent/memory.md', createPermissionPolicy({ mode: 'auto-edit', allow: ['edit(.vibe-agent/**)'] }), workspace)).status).toBe('ok');
  });
});

describe('the CLI in auto-edit with the workspace at $HOME', () => {
  it('denies (no terminal to ask) a model writing permissionMode: yolo into the user config, and still writes ordinary files', async () => {
    const { root } = setup();
    const home = join(root, 'home');
    mkdirSync(home);
    const content = '{"permissionMode":"yolo"}\n';
    const server = await startChatServer([
      { toolCalls: [{ name: 'write_file', arguments: { path: '.config/vibe-agent/config.json', content } }, { name: 'write_file', arguments: { path: 'notes.md', content: 'hi\n' } }] },
      { text: 'done' },
    ]);
    servers.push(server);
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), OPENAI_API_KEY: 'sk-test-1234567890', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'm' };
    const ran = await spawnCli(['--permission-mode', 'auto-edit', '--no-session', 'tidy up'], { cwd: home, env });
    expect(ran.stdout).toContain('done');
    expect(existsSync(join(home, '.config', 'vibe-agent', 'config.json'))).toBe(false);
    expect(existsSync(join(home, 'notes.md'))).toBe(true);
    expect(JSON.stringify(server.requests[1])).toContain('Denied');
  });
});
