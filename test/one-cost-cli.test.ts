/**
 * Issue 41 point 9 and the resume totals, through the built CLI: one cost everywhere. A one-shot
 * run's `--json` stop event, `sessions`, and a resumed TUI's status line and `/cost` (tmux) show the
 * same dollars, priced by one function from one catalog (here the config's `modelPrices`); a resumed
 * session starts from its tokens and cost, not 0, and what it spends next is added on top.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChatServer } from './support/chat-server.js';
import { CLI, spawnCli } from './support/cli-process.js';
import { cleanupAfterEach, requireTmux, startInTmux } from './support/tmux.js';
import { promptShown, statusLine, terminalEnv } from './support/tui-session.js';
import { formatCost } from '../src/cli/display/format-cost.js';

const cleanups = cleanupAfterEach();
requireTmux();

describe('one cost everywhere', () => {
  it('--json, sessions, and a resumed TUI status line and /cost agree; the resumed totals carry on', async () => {
    const server = await startChatServer([
      { text: 'First answer.', usage: { inputTokens: 1200, outputTokens: 300 } },
      { text: 'Second answer.', usage: { inputTokens: 2000, outputTokens: 500 } },
    ]);
    cleanups.push(() => server.close());
    const home = mkdtempSync(join(tmpdir(), 'vibe-cost-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const workspace = join(home, 'project');
    mkdirSync(workspace);
    const env = terminalEnv(home, server.url);
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'vibe-agent'), { recursive: true });
    // $ per million tokens: 1,200 in and 300 out cost $0.0042; 2,000 in and 500 out $0.0070.
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'vibe-agent', 'config.json'), JSON.stringify({ modelPrices: { 'test-model': { input: 1, output: 10 } } }));

    const first = await spawnCli(['say something', '--json'], { cwd: workspace, env });
    expect(first.code).toBe(0);
    const events = first.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; cost?: number });
    const usage = events.filter((event) => event.type === 'usage');
    const stop = events.find((event) => event.type === 'stop')!;
    expect(usage).toHaveLength(1);
    expect(usage[0]!.cost).toBeCloseTo(0.0042, 10);
    expect(stop.cost).toBeCloseTo(0.0042, 10);

    const listed = await spawnCli(['sessions'], { cwd: workspace, env });
    expect(listed.stdout).toContain(formatCost(0.0042));

    const pane = await startInTmux([process.execPath, CLI, '--continue'], { cwd: workspace, width: 120, height: 30, env });
    cleanups.push(() => pane.kill());
    const resumed = await pane.waitFor((screen) => screen.includes('Continuing a conversation of 3 messages.') && promptShown(screen));
    // The status line starts from what the session spent: 1.5k tokens and $0.0042, not 0.
    expect(statusLine(resumed)).toContain('$0.0042');
    expect(statusLine(resumed)).toMatch(/1\.5k tok/);
    await pane.send(['/cost'], { literal: true });
    await pane.send(['Enter']);
    const costed = await pane.waitFor('Cost: $');
    expect(costed).toContain('Cost: $0.0042');
    expect(costed).toMatch(/Tokens: 1\.2k in .*, 300 out/);

    await pane.send(['and again'], { literal: true });
    await pane.send(['Enter']);
    await pane.waitFor('Second answer.');
    await pane.send(['/cost'], { literal: true });
    await pane.send(['Enter']);
    const after = await pane.waitFor((screen) => screen.includes('Cost: $0.0112') && promptShown(screen));
    expect(after).toMatch(/Tokens: 3\.2k in .*, 800 out/);
    expect(statusLine(after)).toContain('$0.0112');
    await pane.send(['/exit'], { literal: true });
    await pane.send(['Enter']);
    expect(await pane.waitForExit()).toBe(0);

    const again = await spawnCli(['sessions'], { cwd: workspace, env });
    expect(again.stdout).toContain('$0.0112');
  });
});
