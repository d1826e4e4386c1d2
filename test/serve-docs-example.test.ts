import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer } from './support/chat-server.js';
import { cliHome } from './support/cli-process.js';
import { startServe } from './support/serve-process.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the client example in docs/server.md', () => {
  it('runs as written against the built server, importing vibe-agent/client by its package name', { timeout: 120_000 }, async () => {
    const docs = readFileSync(new URL('../docs/server.md', import.meta.url), 'utf8');
    const example = /```js\n([\s\S]*?)```/.exec(docs)![1]!;
    expect(example.trim().split('\n').length).toBeLessThanOrEqual(10);
    const model = await startChatServer([{ text: 'Hello from the model.' }]);
    const home = cliHome();
    cleanups.push(() => model.close(), () => home.cleanup());
    const env = { ...home.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: model.url, VIBE_MODEL: 'test-model' };
    const server = await startServe([], { cwd: home.workspace, env });
    cleanups.push(() => server.kill());
    // A program outside this repository that has the package installed (a link to it).
    const program = join(home.root, 'program');
    mkdirSync(join(program, 'node_modules'), { recursive: true });
    symlinkSync(join(import.meta.dirname, '..'), join(program, 'node_modules', 'vibe-agent'));
    writeFileSync(join(program, 'example.mjs'), example);
    const ran = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(program, 'example.mjs')], { cwd: home.workspace, env: { PATH: process.env.PATH ?? '', VIBE_URL: server.url, VIBE_TOKEN: server.printedToken! } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (data) => (stdout += data));
      child.stderr.on('data', (data) => (stderr += data));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(ran.stderr).toBe('');
    expect(ran).toMatchObject({ code: 0, stdout: 'Hello from the model.' });
  });
});
