import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agents, backgroundHome, killServer, repository, serverOf } from './support/background-cli.js';
import { startChatServer, type ChatRequestBody } from './support/chat-server.js';
import { EventWatch } from './support/event-watch.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function reply(body: ChatRequestBody) {
  const results = body.messages.filter((message) => message.role === 'tool').length;
  if (results === 0) return { toolCalls: [{ id: 'w', name: 'write_file', arguments: { path: 'report.txt', content: 'one\ntwo\n' } }] };
  if (results === 1) return { toolCalls: [{ id: 'ok', name: 'bash', arguments: { command: 'grep -c o report.txt' } }] };
  if (results === 2) return { toolCalls: [{ id: 'bad', name: 'bash', arguments: { command: 'exit 3' } }] };
  // The answer waits until the test has seen the session still working (no report yet).
  return { kind: 'gated' as const, reply: { text: 'written and checked.' }, gates: [{ after: 0, release: seenWorking }] };
}
let markSeenWorking: () => void = () => undefined;
let seenWorking = new Promise<void>((resolve) => (markSeenWorking = resolve));

describe('the end-of-session report and notification (the built CLI)', () => {
  it('tells what changed, what ran with its exit code and how to land it, in agents, --json and logs --wait (with a notification)', { timeout: 300_000 }, async () => {
    seenWorking = new Promise<void>((resolve) => (markSeenWorking = resolve));
    const model = await startChatServer(Array(4).fill(reply));
    const home = backgroundHome(model.url);
    cleanups.push(() => model.close(), () => home.cleanup());
    repository(home);
    const started = await home.run(['--bg', '-w', 'rep', '--yes', 'write and check']);
    expect(started.code, started.stderr).toBe(0);
    cleanups.push(() => killServer(home));
    const [row] = await agents(home);
    expect(row!.report).toBeUndefined();
    markSeenWorking();
    const server = serverOf(home);
    const watch = new EventWatch({ baseUrl: server.url, token: server.token, sessionId: row!.id });
    cleanups.push(() => watch.close());
    await watch.until((event) => event.type === 'stop', 'the stop');

    const [ended] = await agents(home);
    expect(ended!.report).toMatchObject({
      outcome: 'answered',
      files: [{ path: 'report.txt', added: 2, removed: 0 }],
      commands: [
        { command: 'grep -c o report.txt', exit: 0 },
        { command: 'exit 3', exit: 3 },
      ],
      notDone: [],
      next: ['vibe-agent land rep --check "…"', 'vibe-agent land rep --pr', 'vibe-agent discard rep'],
    });
    const text = await home.run(['agents']);
    expect(text.stdout).toContain('  changed: report.txt (+2 -0)');
    expect(text.stdout).toContain('  ran: exit 3 → exit 3');

    // logs --wait on an ended session: the report at once, and the notification (notify-send on PATH).
    const bin = join(home.root, 'bin');
    mkdirSync(bin);
    const said = join(home.root, 'notified.txt');
    writeFileSync(join(bin, 'notify-send'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${said}'\n`);
    chmodSync(join(bin, 'notify-send'), 0o755);
    const waited = await home.run(['logs', 'rep', '--wait'], { PATH: `${bin}:${home.env.PATH}` });
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout).toContain('rep ended (answered)');
    expect(waited.stdout).toContain('  ran: grep -c o report.txt → exit 0');
    expect(readFileSync(said, 'utf8')).toBe('--app-name=vibe-agent\nvibe-agent: rep done\n1 file changed; vibe-agent agents\n');

    const logs = await home.run(['logs', 'rep']);
    expect(logs.stdout.trim().split('\n').every((line) => JSON.parse(line).seq > 0)).toBe(true);
    expect(logs.stderr).toContain('  next: vibe-agent land rep --check "…" · vibe-agent land rep --pr · vibe-agent discard rep');
  });
});
