import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatRequestBody } from './support/chat-server.js';
import { spawnCli } from './support/cli-process.js';

const root = mkdtempSync(join(tmpdir(), 'vibe-e2e-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A small repository with one failing test: sum() subtracts. */
function fixtureRepo(): string {
  const repo = join(root, 'repo');
  mkdirSync(join(repo, 'src'), { recursive: true });
  mkdirSync(join(repo, 'test'), { recursive: true });
  writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: 'fixture', type: 'module', scripts: { test: 'node --test test/' } }, null, 2));
  writeFileSync(join(repo, 'src', 'sum.js'), 'export function sum(a, b) {\n  return a - b;\n}\n');
  writeFileSync(
    join(repo, 'test', 'sum.test.js'),
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { sum } from '../src/sum.js';\n\ntest('adds', () => assert.equal(sum(2, 3), 5));\n",
  );
  return repo;
}

function lastToolResult(body: ChatRequestBody): string {
  const message = body.messages.at(-1)!;
  return message.role === 'tool' ? String(message.content) : '';
}

describe('end to end: the agent fixes a failing test through the CLI', () => {
  it('runs the tests, reads the code, edits it, re-runs the tests and answers', async () => {
    const repo = fixtureRepo();
    // The scripted model decides from what it is sent, as a real one would.
    const server = await startChatServer([
      { toolCalls: [{ name: 'bash', arguments: { command: 'npm test' } }] },
      (body) => (lastToolResult(body).includes('exit code: 1') ? { toolCalls: [{ name: 'read_file', arguments: { path: 'src/sum.js' } }] } : { text: 'Tests already pass.' }),
      (body) =>
        lastToolResult(body).includes('return a - b;')
          ? { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/sum.js', old_string: 'return a - b;', new_string: 'return a + b;' } }] }
          : { text: 'I could not read the code.' },
      { toolCalls: [{ name: 'bash', arguments: { command: 'npm test' } }] },
      // A successful command's result carries no ending line: only failures say `exit code: N`.
      (body) => ({ text: !lastToolResult(body).includes('exit code:') ? 'Fixed: sum() subtracted; it now adds, and the test passes.' : 'The test still fails.' }),
    ]);
    const config = join(root, 'config');
    mkdirSync(join(config, 'vibe-agent'), { recursive: true });
    writeFileSync(join(config, 'vibe-agent', 'config.json'), JSON.stringify({ permissions: { allow: ['bash(npm test)'] } }));
    try {
      const ran = await spawnCli(['fix the failing test', '--permission-mode', 'auto-edit'], {
        cwd: repo,
        env: { HOME: root, XDG_CONFIG_HOME: config, XDG_DATA_HOME: join(root, 'data'), OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' },
      });
      expect(ran.stderr).not.toContain('Denied');
      expect(ran.code).toBe(0);
      expect(ran.stdout.trim()).toBe('Fixed: sum() subtracted; it now adds, and the test passes.');
      expect(readFileSync(join(repo, 'src', 'sum.js'), 'utf8')).toBe('export function sum(a, b) {\n  return a + b;\n}\n');
      expect(server.violations).toEqual([]);
      expect(server.requests).toHaveLength(5);
      // The edit came back as a diff; the tests failed first and passed after.
      expect(lastToolResult(server.requests[3]!)).toContain('+  return a + b;');
      expect(lastToolResult(server.requests[1]!)).toContain('exit code: 1');
      expect(lastToolResult(server.requests[4]!)).not.toContain('exit code');
      const tools = server.requests[0]!.tools!.map((tool) => tool.function.name);
      expect(tools).toEqual(expect.arrayContaining(['read_file', 'write_file', 'edit_file', 'list_files', 'grep', 'bash']));
    } finally {
      await server.close();
    }
  }, 60_000);
});
