import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startChatServer } from './support/chat-server.js';
import { spawnCli } from './support/cli-process.js';
import { writeForeignStores } from './support/foreign-sessions.js';

const root = mkdtempSync(join(tmpdir(), 'vibe-import-cli-'));
const home = join(root, 'home');
const workspace = join(root, 'workspace');
mkdirSync(home);
mkdirSync(workspace);
const env = { HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
const files = writeForeignStores(home, workspace);
afterAll(() => rmSync(root, { recursive: true, force: true }));
const cli = (args: string[], extra: Record<string, string> = {}) => spawnCli(args, { cwd: workspace, env: { ...env, ...extra } });
const sessionFiles = () => readdirSync(join(home, 'data', 'vibe-agent', 'sessions'), { recursive: true }).filter((name) => String(name).endsWith('.jsonl'));

describe('vibe-agent import', () => {
  it('lists, imports by id prefix, recognises a re-import, and the other branch is a rewind point', async () => {
    const listed = await cli(['import']);
    expect(listed.code, listed.stderr).toBe(0);
    for (const id of ['c1a0de00-0000-4000-8000-000000000001', '0190c0de-0000-7000-8000-000000000002', 'session-2026-11-03T08-00-gem00003', '2026-11-04T07-00-00-000Z_p1-0004']) expect(listed.stdout).toContain(id);
    const source = readFileSync(files.claude);
    const imported = await cli(['import', 'c1a0de']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('Imported Claude Code session c1a0de00-0000-4000-8000-000000000001');
    expect(imported.stdout).toContain('11 messages, 4 tool calls (3 as Vibe tools, 1 kept foreign), 4 results, 2 branches, 1 compaction, 2 subagent conversations');
    expect(imported.stdout).toContain('1 record type "mystery-record"');
    const id = /as (\d{8}-\d{6}-[0-9a-f]{4})/.exec(imported.stdout)![1]!;
    expect(readFileSync(files.claude)).toEqual(source);
    const again = await cli(['import', files.claude]);
    expect(again.stdout).toContain(`was imported before, as ${id}; nothing changed`);
    expect(sessionFiles()).toHaveLength(1);
    expect((await cli(['import'])).stdout).toMatch(/Claude Code .* yes /);
    const points = await cli(['rewind', '--list', '--resume', id]);
    expect(points.stdout).toContain('"Now also add a test" (rewound)');
    expect(points.stdout).toContain('"Instead, explain the fix"');
  });

  it('refuses a file of no known format (exit 2) and an id nothing matches', async () => {
    const bogus = join(root, 'notes.jsonl');
    writeFileSync(bogus, 'just some notes\n');
    const ran = await cli(['import', bogus]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('is not a Claude Code, Codex, Gemini CLI or pi session file');
    const missing = await cli(['import', 'zzzz']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('"zzzz" is neither a file nor the id of a session listed');
  });

  it('--resume continues the imported session at once on the configured model', async () => {
    const server = await startChatServer([{ text: 'picking up where Codex left off' }]);
    try {
      const ran = await cli(['import', '0190c0de', '--resume', 'run the tests again', '--model', 'gpt-4.1', '--tools', 'calculator'], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.url });
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toContain('picking up where Codex left off');
      expect(server.violations).toEqual([]);
      const sent = server.requests[0]!.messages as Array<{ role: string; content?: unknown }>;
      expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'run the tests again' });
      expect(JSON.stringify(sent)).toContain('Summary: foo was renamed to bar in util.py.');
    } finally {
      await server.close();
    }
  });

  it('--all imports every session listed', async () => {
    const ran = await cli(['import', '--all']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout.match(/^Imported /gm)?.length).toBe(4);
    expect(sessionFiles()).toHaveLength(6);
  });
});
