import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startAnthropicServer, type AnthropicServer } from './support/anthropic-server.js';
import type { AnthropicRequestBody } from './support/anthropic-protocol-check.js';
import { bigOutput } from './support/context-session.js';
import { homeEnv, spawnCli } from './support/cli-process.js';

// Spawns the built CLI (npm run build first).
const home = mkdtempSync(join(tmpdir(), 'vibe-resume-prefix-'));
const workspace = join(home, 'work');
mkdirSync(workspace);
for (let n = 1; n <= 14; n++) writeFileSync(join(workspace, `f${n}.txt`), bigOutput(n, 20_480));
const servers: AnthropicServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

const readFile = (n: number) => ({ toolCalls: [{ name: 'read_file', arguments: { path: `f${n}.txt` } }] });
const asSent = (body: AnthropicRequestBody) => ({ tools: JSON.stringify(body.tools), system: JSON.stringify(body.system), messages: body.messages.map((m) => JSON.stringify(m.content)) });
/** The cache_control markers move with the newest messages; what is cached is the content. */
const withoutMarkers = (value: unknown): unknown => JSON.parse(JSON.stringify(value), (key, v) => (key === 'cache_control' ? undefined : v));

describe('a session resumed with --continue', () => {
  it('sends the old requests prefix again, rewrite points included, and reads it from the cache on its first request', async () => {
    const script = [...Array.from({ length: 12 }, (_, i) => readFile(i + 1)), { text: 'read twelve' }, readFile(13), readFile(14), { text: 'read two more' }];
    const server = await startAnthropicServer(script);
    servers.push(server);
    const env = { ...homeEnv(home), ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    const flags = ['--provider', 'anthropic', '--tools', 'read_file', '--context-window', '24000', '--json'];
    const first = await spawnCli([...flags, 'Read f1 to f12.'], { cwd: workspace, env });
    expect(first.code).toBe(0);
    const firstEvents = first.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; turn?: number });
    // The first run reached a rewrite point (recorded in the session), so the resume must replay it.
    expect(firstEvents.some((event) => event.type === 'context_rewrite')).toBe(true);
    const before = server.requests.length;

    const second = await spawnCli([...flags, '--continue', 'Now f13 and f14.'], { cwd: workspace, env });
    expect(second.code).toBe(0);
    expect(server.violations).toEqual([]);
    const last = server.requests[before - 1]!;
    const resumed = server.requests[before]!;
    const [old, now] = [withoutMarkers(last) as AnthropicRequestBody, withoutMarkers(resumed) as AnthropicRequestBody].map(asSent);
    expect(now!.tools).toBe(old!.tools);
    expect(now!.system).toBe(old!.system);
    // The last request of the first run, its answer and the new prompt: the old messages unchanged.
    expect(now!.messages.slice(0, old!.messages.length)).toEqual(old!.messages);
    const usage = second.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; cache?: { read: number; written: number; uncached: number; why?: string } }).find((event) => event.type === 'usage');
    expect(usage?.cache?.why).toBeUndefined();
    // Everything up to the old request's last breakpoint is read; only the new prompt and answer are written.
    expect(usage!.cache!.read).toBeGreaterThan(usage!.cache!.written + usage!.cache!.uncached);

    // A replay follows the recorded rewrite points: every request of both runs, byte for byte.
    const listed = await spawnCli(['sessions'], { cwd: workspace, env: homeEnv(home) });
    const id = listed.stdout.split('\n')[1]!.split(/\s+/)[2]!;
    const replay = await spawnCli(['replay', id, '--tools', 'read_file', '--context-window', '24000'], { cwd: workspace, env: homeEnv(home) });
    expect(replay.stderr).toBe('');
    expect(replay.stdout).toMatch(/identical/);
    expect(replay.stdout).not.toMatch(/differ/);
    expect(replay.code).toBe(0);
  }, 90_000);
});
