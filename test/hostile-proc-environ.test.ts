/**
 * Issue 27, class 5: a command the agent runs cannot read the user's keys from the CLI's
 * /proc/<pid>/environ or cmdline (the initial blocks, which deleting from process.env leaves as they
 * were), nor from any ancestor it can see; with the sandbox off and on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { detectBubblewrap } from '../src/sandbox/detect-bubblewrap.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { homeEnv, spawnCli } from './support/cli-process.js';

const bubblewrap = detectBubblewrap();
if (!bubblewrap.ok) console.warn(`SKIPPED (the sandbox-on half): ${bubblewrap.reason}`);

const home = mkdtempSync(join(tmpdir(), 'vibe-proc-environ-'));
const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

// Every ancestor's environ and cmdline, base64 (an encoding the redactor does not know, so only the CLI's own care keeps the key out).
const WALK = `p=$PPID; while [ -n "$p" ] && [ "$p" -gt 0 ]; do printf 'pid %s ' "$p"; { cat /proc/$p/environ; printf '\\n'; cat /proc/$p/cmdline; } 2>/dev/null | base64 -w0; echo; p=$(sed 's/.*) //' /proc/$p/stat 2>/dev/null | cut -d' ' -f2); done`;

async function ancestorsSeenByBash(sandbox: 'on' | 'off', extraArgs: string[], env: Record<string, string>): Promise<string[]> {
  const server = await startChatServer([{ toolCalls: [{ name: 'bash', arguments: { command: WALK } }] }, { text: 'done' }]);
  servers.push(server);
  const ran = await spawnCli(['walk', '--yes', '--no-session', '--sandbox', sandbox, ...extraArgs], { cwd: home, env: { ...homeEnv(home), OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model', ...env } });
  expect(ran.stdout, ran.stderr).toContain('done');
  const toolTurn = server.requests[1]!.messages.at(-1) as { content: string };
  return [...toolTurn.content.matchAll(/pid \d+ (\S*)/g)].map(([, b64]) => Buffer.from(b64!, 'base64').toString('latin1'));
}

const KEY = 'sk-proc-environ-key-0123456789';
const TOKEN = 'ghp_procEnvironToken0123456789';
const FLAG_KEY = 'sk-flag-on-the-command-line-98765';

describe('the CLI keeps the user keys out of /proc', () => {
  it('sandbox off: bash reads its ancestors (the CLI among them) and finds no key in any environ or cmdline', async () => {
    const blocks = await ancestorsSeenByBash('off', ['--api-key', FLAG_KEY], { OPENAI_API_KEY: KEY, GITHUB_TOKEN: TOKEN, OTHER_SETTING: 'kept' });
    // It did reach the CLI: its cmdline and the rest of its environment are there.
    const cli = blocks.find((block) => block.includes('main.js'));
    expect(cli).toBeDefined();
    expect(cli).toContain('OTHER_SETTING=kept');
    for (const block of blocks) for (const secret of [KEY, TOKEN, FLAG_KEY]) expect(block).not.toContain(secret);
  });

  it.runIf(bubblewrap.ok)('sandbox on: bash sees no process outside its namespace, so neither the CLI nor its ancestors', async () => {
    const blocks = await ancestorsSeenByBash('on', [], { OPENAI_API_KEY: KEY, GITHUB_TOKEN: TOKEN });
    expect(blocks.length).toBeGreaterThan(0);
    expect(blocks.some((block) => block.includes('main.js'))).toBe(false);
    for (const block of blocks) for (const secret of [KEY, TOKEN]) expect(block).not.toContain(secret);
  });
});
