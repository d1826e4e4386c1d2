/**
 * Issue 27, class 5: the checkpoint store never holds the agent's own state (sessions, history,
 * config, cache) nor the workspace's secret files, so it is never a second copy of the key.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ShadowGit } from '../src/checkpoints/shadow-git.js';
import { takeSnapshot } from '../src/checkpoints/snapshot.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { spawnCli } from './support/cli-process.js';

const KEY = 'sk-checkpoint-store-key-0123456789';
const roots: string[] = [];
const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function tempRoot(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'vibe-store-')));
  roots.push(root);
  return root;
}

/** Every object in the store, as git prints it (blobs' contents, trees' names, commits). */
const allObjects = (gitDir: string) => execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch-all-objects', '--batch'], { encoding: 'latin1', maxBuffer: 64 * 1024 * 1024 });
const treePaths = (gitDir: string) => {
  const trees = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.endsWith(' tree'))
    .map((line) => line.split(' ')[0]!);
  return new Set(trees.flatMap((tree) => execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '--name-only', tree], { encoding: 'utf8' }).split('\n').filter(Boolean)));
};

describe('the checkpoint store', () => {
  it('after a session run in a workspace holding the data, config and cache folders and a .env: no object holds the key, no tree names them', async () => {
    const workspace = tempRoot();
    mkdirSync(join(workspace, 'src'));
    writeFileSync(join(workspace, 'src', 'app.ts'), 'export const app = 1;\n');
    writeFileSync(join(workspace, '.env'), `OPENAI_API_KEY=${KEY}\n`);
    mkdirSync(join(workspace, 'config', 'vibe-agent'), { recursive: true });
    writeFileSync(join(workspace, 'config', 'vibe-agent', 'notes.txt'), `the user's own state ${KEY}\n`);
    const server = await startChatServer([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'src/more.ts', content: 'export const more = 2;\n' } }] },
      { toolCalls: [{ name: 'bash', arguments: { command: 'echo changed >> src/app.ts' } }] },
      { text: 'done' },
    ]);
    servers.push(server);
    const env = { HOME: workspace, XDG_DATA_HOME: join(workspace, 'data'), XDG_CONFIG_HOME: join(workspace, 'config'), XDG_CACHE_HOME: join(workspace, 'cache'), OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' };
    const ran = await spawnCli(['--permission-mode', 'yolo', '--sandbox', 'off', `my key is ${KEY}, keep it safe`], { cwd: workspace, env });
    expect(ran.code, ran.stderr).toBe(0);

    const stores = join(workspace, 'data', 'vibe-agent', 'checkpoints');
    const [store] = readdirSync(stores).filter((name) => !name.endsWith('.jsonl'));
    const gitDir = join(stores, store!, 'git');
    const paths = treePaths(gitDir);
    // The snapshots were taken (the workspace's own files are there) …
    expect(paths).toContain('src/app.ts');
    expect(paths).toContain('src/more.ts');
    // … and hold neither the secret file nor anything of the CLI's folders, nor the key anywhere.
    expect([...paths].filter((path) => path === '.env' || /^(data|config|cache)\//.test(path))).toEqual([]);
    expect(allObjects(gitDir)).not.toContain(KEY);
  });

  it('a store written before these rules lets go of a secret file and of the data folder at its next snapshot', async () => {
    const root = tempRoot();
    const workspace = join(root, 'ws');
    mkdirSync(join(workspace, 'data', 'sessions'), { recursive: true });
    writeFileSync(join(workspace, '.env'), `KEY=${KEY}\n`);
    writeFileSync(join(workspace, 'data', 'sessions', 's.jsonl'), `{"key":"${KEY}"}\n`);
    writeFileSync(join(workspace, 'app.ts'), 'export {};\n');
    const gitDir = join(root, 'store');
    // The old store: no exclusions, and the files already in its index.
    const old = new ShadowGit(gitDir, workspace);
    await old.ensure();
    await old.must(['add', '-f', '.env', 'data/sessions/s.jsonl', 'app.ts']);

    const store = new ShadowGit(gitDir, workspace, [join(workspace, 'data')]);
    const snapshot = await takeSnapshot(store);
    const files = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '--name-only', snapshot.tree], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files).toEqual(['app.ts']);
  });
});
