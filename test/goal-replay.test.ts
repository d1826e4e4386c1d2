/**
 * Replaying a recorded goal session: `vibe-agent replay` rebuilds each judge request from the
 * session's history with today's code (byte for byte the recorded one), reads the recorded replies
 * through today's judge, and reproduces every verdict; a changed judge answer, or a rebuilt request
 * that differs, is reported as a divergence (exit 1).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI_SESSION_TIMEOUT_MS } from './support/cli-process.js';
import { askChecks, judged, useGoalCli } from './support/goal-cli.js';

const setup = useGoalCli();
const writeDone = { toolCalls: [{ name: 'write_file', arguments: { path: 'done.txt', content: 'done\n' } }] };

type Record = { type: string; [key: string]: unknown };

/** The session file with one change made to its records (a tampered or differently recorded session). */
function edited(path: string, change: (records: Record[]) => void): string {
  const records = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record);
  change(records);
  const copy = path.replace(/\.jsonl$/, '-edited.jsonl');
  writeFileSync(copy, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
  return copy;
}

describe('replaying a goal session', { timeout: CLI_SESSION_TIMEOUT_MS * 2 }, () => {
  it("reproduces the judge's verdicts from the record, and reports a changed judge answer or request as a divergence", async () => {
    const { agent, judge, home, run } = await setup(
      [{ text: 'Nothing to do yet.' }, writeDone, { text: 'Wrote done.txt.' }],
      [askChecks('npm test'), judged('not_met', 'npm test fails: done.txt is not done'), askChecks('npm test', 'read:done.txt'), judged('met', 'npm test passes', [{ check: 'npm test', exit_code: 0 }, { file: 'done.txt', line: 1, text: 'done' }])],
    );
    const ran = await run(['--goal', 'npm test passes']);
    expect(ran.code, ran.stderr).toBe(0);
    const [file] = home.sessionFiles();
    const path = home.sessionPath(file!);
    const agentRequests = agent.requests.length;
    const judgeRequests = judge.requests.length;

    const replayed = await run(['replay', path]);
    expect(replayed.stdout).toContain('reproduced: the 2 judge verdicts of the goal (not met, met), each from the same request.');
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    // Offline: nothing was sent to either model, and no check ran again (the record answered them).
    expect([agent.requests.length, judge.requests.length]).toEqual([agentRequests, judgeRequests]);

    // The judge's last reply recorded as "not_met": today's judge reads it and the verdict no longer matches.
    const changedAnswer = edited(path, (records) => {
      const verdict = records.filter((record) => record.type === 'goal_verdict').at(-1)!;
      const exchanges = verdict.exchanges as Array<{ reply?: string }>;
      exchanges.at(-1)!.reply = JSON.stringify({ status: 'not_met', reason: 'the tests still fail', evidence: [] });
    });
    const diverged = await run(['replay', changedAnswer]);
    expect(diverged.code).toBe(1);
    expect(diverged.stdout).toContain('judge verdict differs at goal turn 2 ("npm test passes"): the judge now says not_met (not accepted): the tests still fail; recorded met (accepted): npm test passes');

    // Evidence that no longer matches the recorded check (exit code 1 instead of 0) is not accepted now.
    const changedCheck = edited(path, (records) => {
      const verdict = records.filter((record) => record.type === 'goal_verdict').at(-1)!;
      const exchanges = verdict.exchanges as Array<{ request: { messages: Array<{ role: string; content: string }> } }>;
      const last = exchanges.at(-1)!.request.messages.at(-1)!;
      const tampered = last.content.replace('"kind":"check","name":"npm test","exit_code":0', '"kind":"check","name":"npm test","exit_code":1');
      expect(tampered).not.toBe(last.content);
      last.content = tampered;
    });
    const rejected = await run(['replay', changedCheck]);
    expect(rejected.code).toBe(1);
    expect(rejected.stdout).toContain('the judge now says met (not accepted): the judge cited "npm test" with exit code 0; it exited 1');

    // A goal condition that differs from the one the judge was asked about: the rebuilt request differs.
    const changedGoal = edited(path, (records) => {
      records.find((record) => record.type === 'goal_start')!.condition = 'npm test passes quickly';
    });
    const differs = await run(['replay', changedGoal]);
    expect(differs.code).toBe(1);
    expect(differs.stdout).toMatch(/judge verdict differs at goal turn 1 \("npm test passes quickly"\): the rebuilt judge request differs from the recorded one \(sha256:\w+ ≠ sha256:\w+\)/);
  });
});
