/**
 * `/goal` in the terminal UI (the built CLI in tmux), on the conversation core's goal machinery:
 * the agent's server and the judge's (another provider preset) are local scripted wire servers.
 * The caps are shown when a goal starts, the status line carries turns, cost and time, `/goal`
 * shows it and `/goal clear` ends it, one goal at a time, and a resumed session with an unfinished
 * goal asks before continuing it, with what is left of each cap.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer, type ServerStep } from './support/chat-server.js';
import { CLI } from './support/cli-process.js';
import { askChecks, judged } from './support/goal-cli.js';
import { cleanupAfterEach, requireTmux, startInTmux, type TmuxPane } from './support/tmux.js';
import { statusLine, terminalEnv } from './support/tui-session.js';

const cleanups = cleanupAfterEach();
const passed = [{ check: 'npm test', exit_code: 0 }];
const writeDone = { toolCalls: [{ name: 'write_file', arguments: { path: 'done.txt', content: 'done\n' } }] };
const idle = (screen: string) => !/· (working|approval)\b/.test(statusLine(screen));

async function setUp(agentScript: ServerStep[], judgeScript: ServerStep[]): Promise<{ agent: ChatServer; judge: ChatServer; workspace: string; open(args?: string[]): Promise<TmuxPane> }> {
  const agent = await startChatServer(agentScript);
  const judge = await startChatServer(judgeScript, { checkEcho: false });
  cleanups.push(() => agent.close(), () => judge.close());
  const home = mkdtempSync(join(tmpdir(), 'vibe-tui-goal-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const workspace = join(home, 'project');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'package.json'), JSON.stringify({ name: 'goal-fixture', private: true, scripts: { test: 'node check.js' } }));
  writeFileSync(join(workspace, 'check.js'), "const fs = require('node:fs');\nconst ok = fs.existsSync('done.txt');\nconsole.log(ok ? 'all 1 tests passed' : 'FAIL');\nprocess.exit(ok ? 0 : 1);\n");
  const env = terminalEnv(home, agent.url, { OLLAMA_BASE_URL: judge.url });
  const open = async (args: string[] = []) => {
    const pane = await startInTmux([process.execPath, CLI, '--sandbox', 'off', '--goal-judge', 'ollama/judge-model', ...args], { cwd: workspace, width: 140, height: 45, env });
    cleanups.push(() => pane.kill());
    await pane.waitFor('/help for commands');
    return pane;
  };
  return { agent, judge, workspace, open };
}

async function typeLine(pane: TmuxPane, text: string): Promise<void> {
  await pane.send([text], { literal: true });
  await pane.send(['Enter']);
}

describe('/goal in the terminal UI', () => {
  it('shows the caps, works until the judge cites npm test exiting 0, with turns, cost and time in the status line; /goal shows it, one goal at a time', async () => {
    requireTmux();
    const { agent, judge, workspace, open } = await setUp(
      [{ text: 'Looked around.' }, writeDone, { text: 'Wrote done.txt.' }],
      [askChecks('npm test'), judged('not_met', 'npm test fails: no done.txt'), askChecks('npm test'), judged('met', 'npm test passes', passed)],
    );
    const pane = await open();
    await typeLine(pane, '/goal npm test passes');
    const started = await pane.waitFor('caps: 20 turns, $5, 2,000,000 tokens, 60 min');
    expect(started).toContain('Goal: npm test passes');
    // The first verdict is in and the second turn asks to write: the status line shows the goal.
    const asking = await pane.waitFor('Allow write_file?');
    expect(asking).toContain('goal turn 1: not met: npm test fails: no done.txt (ran npm test: exit 1)');
    expect(statusLine(asking)).toMatch(/goal 1\/20 turns · \$0\.00\/\$5 · 0m\d\ds\/60m00s/);
    await pane.send(['y']);
    const done = await pane.waitFor((screen) => screen.includes('Goal met: npm test passes') && idle(screen));
    expect(done).toContain('goal turn 2: met: npm test passes (ran npm test: exit 0)');
    expect(statusLine(done)).not.toContain('goal');
    expect(existsSync(join(workspace, 'done.txt'))).toBe(true);
    expect(agent.requests).toHaveLength(3);
    expect(judge.requests).toHaveLength(4);
    await typeLine(pane, '/goal');
    await pane.waitFor('No goal. /goal CONDITION starts one');
    await typeLine(pane, '/exit');
    expect(await pane.waitForExit()).toBe(0);
    expect(agent.violations).toEqual([]);
  });

  it('/goal and /goal clear act while a goal runs; a second goal is refused meanwhile; the cleared goal is not offered on resume', async () => {
    requireTmux();
    const { agent, open } = await setUp([{ kind: 'stall', reply: { text: 'Working on it, slowly.' }, afterChunks: 2 }], []);
    const pane = await open();
    await typeLine(pane, '/goal the build is green');
    await pane.waitFor((screen) => screen.includes('Worki') && /goal 0\/20 turns/.test(statusLine(screen)));
    await typeLine(pane, '/goal');
    await pane.waitFor((screen) => /Goal: the build is green\n\s+goal 0\/20 turns · \$0\.00\/\$5 · \dm\d\ds\/60m00s · \/goal clear ends it/.test(screen));
    await typeLine(pane, '/goal another condition');
    await pane.waitFor('One goal per session: /goal clear ends this one first.');
    await typeLine(pane, '/goal clear');
    const cleared = await pane.waitFor((screen) => screen.includes('Goal cleared: the user cleared the goal') && idle(screen));
    expect(statusLine(cleared)).not.toContain('goal');
    expect(agent.requests).toHaveLength(1);
    await typeLine(pane, '/exit');
    expect(await pane.waitForExit()).toBe(0);
    const again = await open(['--continue']);
    await typeLine(again, '/goal');
    await again.waitFor('No goal. /goal CONDITION starts one');
    expect(await again.screen()).not.toContain('unfinished goal');
  });

  it('resuming a session whose goal was cancelled asks before continuing it, showing what is left of each cap', async () => {
    requireTmux();
    const { agent, judge, open } = await setUp(
      [{ kind: 'stall', reply: { text: 'Starting the work.' }, afterChunks: 2 }, writeDone, { text: 'Wrote done.txt.' }],
      [askChecks('npm test'), judged('met', 'npm test passes', passed)],
    );
    const first = await open();
    await typeLine(first, '/goal npm test passes');
    // 'Star', not 'Start': the stream stalls there, and a streamed end that could begin a held key
    // (the test key starts with "t") is held back until the stream moves on.
    await first.waitFor('Star');
    await first.send(['C-c']);
    await first.waitFor((screen) => screen.includes('Goal aborted: the goal was cancelled') && idle(screen));
    await typeLine(first, '/exit');
    expect(await first.waitForExit()).toBe(0);

    const resumed = await open(['--continue']);
    const asked = await resumed.waitFor('Continue it?');
    expect(asked).toContain('This session has an unfinished goal: npm test passes');
    expect(asked).toMatch(/Left: 19 of 20 turns, \$5\.00 of \$5, \d+ of 2000000 tokens, \d+ of 60 min/);
    await resumed.send(['y']);
    await resumed.waitFor('Goal (resumed): npm test passes');
    await resumed.waitFor('Allow write_file?');
    await resumed.send(['y']);
    await resumed.waitFor((screen) => screen.includes('Goal met: npm test passes') && idle(screen));
    expect(agent.requests).toHaveLength(3);
    expect(judge.requests).toHaveLength(2);
    // The resumed turn continued the earlier conversation.
    expect(JSON.stringify(agent.requests[1]!.messages)).toContain('Work until this goal holds: npm test passes');
    await typeLine(resumed, '/exit');
    expect(await resumed.waitForExit()).toBe(0);
  });
});
