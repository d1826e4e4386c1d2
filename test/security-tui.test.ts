/**
 * The interactive UI in a real terminal (tmux): a command that tries to disguise itself in the
 * approval question is shown as it is, and a reply's escape sequences are written out.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChatServer } from './support/chat-server.js';
import { CLI } from './support/cli-process.js';
import { terminalEnv } from './support/tui-session.js';
import { cleanupAfterEach, requireTmux, startInTmux } from './support/tmux.js';

const cleanups = cleanupAfterEach();
requireTmux();

describe('approvals in the interactive UI (tmux)', () => {
  it('a command hiding behind a carriage return and erase-line is shown whole, and declining runs nothing', async () => {
    const home = mkdtempSync(join(tmpdir(), 'vibe-sec-tui-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    mkdirSync(join(home, 'project'));
    const server = await startChatServer([
      { toolCalls: [{ name: 'bash', arguments: { command: 'touch pwned #\r\x1b[2Kls -la' } }] },
      { text: 'Title\x1b]0;owned\x07 done.' },
    ]);
    cleanups.push(() => server.close());
    const pane = await startInTmux([process.execPath, CLI, '--tools', 'bash'], {
      cwd: join(home, 'project'),
      width: 100,
      height: 30,
      env: terminalEnv(home, server.url),
    });
    cleanups.push(() => pane.kill());
    await pane.waitFor('/help for commands');
    await pane.send(['list the files'], { literal: true });
    await pane.send(['Enter']);
    const asking = await pane.waitFor('Allow bash?');
    expect(asking).toContain('touch pwned #\\r\\e[2Kls -la');
    await pane.send(['n'], { literal: true });
    const after = await pane.waitFor('done.');
    expect(after).toContain('Title\\e]0;owned\\u{0007} done.');
    const toolResult = server.requests[1]!.messages.find((m) => m.role === 'tool');
    expect(toolResult?.content).toContain('Denied');
    expect(() => execFileSync('test', ['-e', join(home, 'project', 'pwned')])).toThrow();
  });
});
