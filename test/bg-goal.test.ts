/**
 * `vibe-agent --bg --goal`: the built CLI starts the background server, which pursues the goal in a
 * hosted session (the real OpenAI SDK to a scripted agent server, the judge on the ollama preset's
 * own scripted server); `agents [--json]` shows the goal's state, its last verdict and evidence.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRow } from '../src/cli/commands/background/agent-status.js';
import { startChatServer } from './support/chat-server.js';
import { cliHome, waitFor } from './support/cli-process.js';
import { EventWatch } from './support/event-watch.js';
import { askChecks, judged, writeGoalFixture } from './support/goal-cli.js';
import { isAlive } from './support/processes.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('--bg --goal', () => {
  it('pursues the goal in a background session, and agents shows its state, verdict and evidence', { timeout: 180_000 }, async () => {
    const agent = await startChatServer([{ toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'done.txt', content: 'done\n' } }] }, { text: 'Wrote done.txt.' }]);
    const judge = await startChatServer([askChecks('npm test'), judged('met', 'npm test passes', [{ check: 'npm test', exit_code: 0 }])], { checkEcho: false });
    const home = cliHome();
    cleanups.push(() => agent.close(), () => judge.close(), () => home.cleanup());
    writeGoalFixture(home.workspace);
    // The background server takes the user's config like any run: the judge and the checks' sandbox.
    mkdirSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent'), { recursive: true });
    writeFileSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent', 'config.json'), JSON.stringify({ goalJudge: { provider: 'ollama', model: 'judge-model' }, sandbox: 'off' }));
    Object.assign(home.env, { XDG_STATE_HOME: join(home.root, 'state'), OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: agent.url, VIBE_MODEL: 'agent-model', OLLAMA_BASE_URL: judge.url });

    const started = await home.run(['--bg', '--permission-mode', 'auto-edit', '--goal', 'npm test passes', '--goal-max-turns', '4']);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toContain('goal running: npm test passes · 0 of 4 turns');
    const state = join(home.env.XDG_DATA_HOME, 'vibe-agent', 'serve');
    const server = JSON.parse(readFileSync(join(state, 'address.json'), 'utf8')) as { url: string; pid: number };
    const token = readFileSync(join(state, 'token'), 'utf8').trim();
    cleanups.push(async () => {
      if (isAlive(server.pid)) process.kill(server.pid, 'SIGKILL');
      await waitFor(() => !isAlive(server.pid), 'the background server to exit', 60_000);
    });
    const listed = await home.run(['agents', '--json']);
    const [row] = (JSON.parse(listed.stdout) as { agents: AgentRow[] }).agents;
    const watch = new EventWatch({ baseUrl: server.url, token, sessionId: row!.id });
    cleanups.push(() => watch.close());
    expect(await watch.until((event) => event.type === 'goal_end', 'the goal end')).toMatchObject({ outcome: 'met' });
    expect(readFileSync(join(home.workspace, 'done.txt'), 'utf8')).toBe('done\n');

    const after = await home.run(['agents', '--json']);
    const goal = (JSON.parse(after.stdout) as { agents: AgentRow[] }).agents[0]!.goal;
    expect(goal).toMatchObject({
      condition: 'npm test passes',
      status: 'met',
      caps: { maxTurns: 4 },
      spent: { turns: 1 },
      left: { turns: 3 },
      lastVerdict: { accepted: true, evidence: [{ check: 'npm test', exit_code: 0 }], checks: [{ name: 'npm test', exit_code: 0 }] },
    });
    const text = await home.run(['agents']);
    expect(text.stdout).toContain('goal met: npm test passes · 1 of 4 turns');
    expect(text.stdout).toContain('last verdict (turn 1): met: npm test passes');
    expect(judge.requests).toHaveLength(2);
  });
});
