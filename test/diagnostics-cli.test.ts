import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { homeEnv, spawnCli } from './support/cli-process.js';
import { makeTsProject } from './support/ts-fixture.js';

const home = mkdtempSync(join(tmpdir(), 'vibe-diag-cli-'));
const servers: ChatServer[] = [];
const projects: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const dir of projects.splice(0)) rmSync(dir, { recursive: true, force: true });
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

const OLD_ERROR = "export const a: number = 'x';\n";

/** The model reads src/a.ts, breaks line 2 with an edit, then answers; the server records what it was sent. */
async function run(extraArgs: string[], projectConfig?: object) {
  const ws = await makeTsProject({ 'src/a.ts': `${OLD_ERROR}export const b = 1;\n`, ...(projectConfig ? { '.vibe-agent/config.json': JSON.stringify(projectConfig) } : {}) });
  projects.push(ws);
  const server = await startChatServer([
    { toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }] },
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/a.ts', old_string: 'export const b = 1;', new_string: 'export const b: string = 1;' } }] },
    { text: 'done' },
  ]);
  servers.push(server);
  const env = { ...homeEnv(home), OPENAI_API_KEY: 'sk-test-key-1234567890', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' };
  const ran = await spawnCli(['-p', 'change b', '--tools', 'coding', '--no-session', ...extraArgs], { cwd: ws, env });
  const toolResult = server.requests[2]?.messages.at(-1);
  return { ran, ws, toolResult: String(toolResult?.content ?? '') };
}

describe('diagnostics after edits through the built CLI', () => {
  it('the edit_file result the model receives names the one error the edit introduced', { timeout: 240_000 }, async () => {
    // The fixture links this repository's TypeScript; a clean clone under /tmp would be hidden by the
    // shell sandbox's private /tmp, so the checker runs unsandboxed here (the sandbox has its own tests).
    const { ran, toolResult } = await run(['--permission-mode', 'yolo', '--sandbox', 'off']);
    expect(ran.code).toBe(0);
    expect(toolResult).toContain('Edited src/a.ts');
    expect(toolResult).toContain('tsc: this edit introduced 1 problem:');
    expect(toolResult).toMatch(/src\/a\.ts:2:14 error TS2322/);
    expect(toolResult).not.toContain('src/a.ts:1:');
  });

  it('in auto-edit mode with nobody to ask, the edit runs but the checker (an execute action) does not, and the run exits 4 naming it', { timeout: 240_000 }, async () => {
    const { ran, ws, toolResult } = await run(['--permission-mode', 'auto-edit'], { diagnostics: { command: 'touch checker-ran' } });
    expect(ran.code, ran.stderr).toBe(4);
    expect(ran.stderr).toContain('needed approval and there was no terminal to ask');
    expect(ran.stderr).toContain('diagnostics');
    expect(toolResult).toContain('Edited src/a.ts');
    expect(toolResult).toContain('(Diagnostics: diagnostics was not run:');
    expect(existsSync(join(ws, 'checker-ran'))).toBe(false);
  });

  it('--diagnostics off: no checker runs and the result does not mention one', { timeout: 240_000 }, async () => {
    const { ran, ws, toolResult } = await run(['--permission-mode', 'yolo', '--diagnostics', 'off'], { diagnostics: { command: 'touch checker-ran' } });
    expect(ran.code).toBe(0);
    expect(toolResult).toContain('Edited src/a.ts');
    expect(toolResult).not.toMatch(/tsc|problem|diagnostics/i);
    expect(existsSync(join(ws, 'checker-ran'))).toBe(false);
  });
});
