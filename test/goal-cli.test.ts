/**
 * Goals end to end: the built CLI with `--goal`, the real OpenAI SDK over HTTP to two scripted
 * servers (the agent's, and the judge's on another provider preset). The judge runs `npm test` in
 * the workspace and must cite its exit code; "met" without matching evidence does not end the
 * goal; caps end it with one wrap-up turn whose calls are refused (exit 3); the same judge reason
 * three turns in a row stops it as blocked; a resumed goal continues only with --continue-goal.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readSessionFile } from '../src/session/read-session.js';
import { buildTrace } from '../src/trace/build-trace.js';
import { CLI_SESSION_TIMEOUT_MS } from './support/cli-process.js';
import { askChecks, judged, useGoalCli } from './support/goal-cli.js';

const setup = useGoalCli();

type Line = { type: string; [key: string]: unknown };
const lines = (stdout: string): Line[] =>
  stdout
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line);
const writeDone = { toolCalls: [{ name: 'write_file', arguments: { path: 'done.txt', content: 'done\n' } }] };
const passed = [{ check: 'npm test', exit_code: 0 }];
const judgeText = (body: { messages: Array<{ role: string; content?: unknown }> }) => body.messages.map((message) => String(message.content ?? '')).join('\n');

describe('goals', { timeout: CLI_SESSION_TIMEOUT_MS * 2 }, () => {
  it('works across turns and stops when the judge, having run npm test, cites its exit code 0; verdicts are in --json and the session file', async () => {
    const { agent, judge, home, run } = await setup(
      [{ text: 'I looked around; nothing to do yet.' }, writeDone, { text: 'Wrote done.txt.' }],
      [askChecks('npm test'), judged('not_met', 'npm test fails: done.txt is not done'), askChecks('npm test'), judged('met', 'npm test passes', passed)],
    );
    const ran = await run(['--goal', 'npm test passes', '--json']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(readFileSync(`${home.workspace}/done.txt`, 'utf8')).toBe('done\n');
    expect(agent.requests).toHaveLength(3);
    expect(judge.requests).toHaveLength(4);
    // The judge saw the check's real exit code and output, as a line it could not have written.
    expect(judgeText(judge.requests[1]!)).toContain('"exit_code":1');
    expect(judgeText(judge.requests[3]!)).toContain('"exit_code":0');
    expect(judgeText(judge.requests[0]!)).not.toContain('I looked around');
    const out = lines(ran.stdout);
    expect(out.filter((line) => line.type === 'goal_verdict').map((line) => [line.accepted, line.checks])).toEqual([
      [false, [{ name: 'npm test', exit_code: 1 }]],
      [true, [{ name: 'npm test', exit_code: 0 }]],
    ]);
    const end = out.find((line) => line.type === 'goal_end')!;
    expect(end).toMatchObject({ outcome: 'met' });
    expect(String(end.report)).toContain('Evidence: npm test exited 0');
    expect(String(end.report)).toContain('Changed: done.txt');
    const [file] = home.sessionFiles();
    const read = readSessionFile(home.sessionPath(file!));
    expect(read.records.map((record) => record.type).filter((type) => type.startsWith('goal_'))).toEqual(['goal_start', 'goal_verdict', 'goal_verdict', 'goal_end']);
    const trace = await buildTrace(read, { file: file! });
    const notes = trace.turns.flatMap((turn) => turn.notes);
    // The trace's JSON carries the goal itself: its caps, each verdict with its evidence and checks, its end.
    expect(trace.goals).toMatchObject([
      {
        condition: 'npm test passes',
        caps: { maxTurns: 20, maxCost: 5 },
        verdicts: [
          { turn: 1, accepted: false, checks: [{ name: 'npm test', exit_code: 1 }] },
          { turn: 2, accepted: true, evidence: passed, checks: [{ name: 'npm test', exit_code: 0 }] },
        ],
        end: { outcome: 'met' },
      },
    ]);
    expect(notes.find((note) => note.startsWith('Goal judgement') && note.includes('met (the judge said met)'))).toContain('npm test → exit 0');
  });

  it('a "met" with no evidence, or citing a check it never ran, does not end the goal', async () => {
    const { agent, judge, run } = await setup(
      [writeDone, { text: 'Done, tests pass.' }, { text: 'Still done.' }, { text: 'Yes, done.' }],
      [judged('met', 'the agent says the tests pass'), judged('met', 'npm test passes', passed), askChecks('npm test'), judged('met', 'npm test passes', passed)],
    );
    const ran = await run(['--goal', 'npm test passes', '--json']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(agent.requests).toHaveLength(4);
    expect(judge.requests).toHaveLength(4);
    const verdicts = lines(ran.stdout).filter((line) => line.type === 'goal_verdict');
    expect(verdicts.map((line) => [line.status, line.accepted])).toEqual([
      ['met', false],
      ['met', false],
      ['met', true],
    ]);
    expect(String(verdicts[0]!.reason)).toContain('cited no evidence');
    expect(String(verdicts[1]!.reason)).toContain('which it did not run');
    // The agent was sent back with the reason the goal does not hold.
    expect(JSON.stringify(agent.requests[2]!.messages)).toContain('cited no evidence');
  });

  it('an unsatisfiable goal stops at its turn cap after one wrap-up turn whose calls are refused, exit 3, with an honest report', async () => {
    const { agent, judge, run } = await setup(
      [{ text: 'Trying one thing.' }, { text: 'Trying another.' }, { toolCalls: [{ name: 'bash', arguments: { command: 'echo more work > more.txt' } }] }, { text: 'I could not make it hold.' }],
      [judged('not_met', 'the moon is not made of cheese'), judged('not_met', 'still no cheese on the moon')],
    );
    const ran = await run(['--goal', 'the moon is made of cheese', '--goal-max-turns', '2', '--json']);
    expect(ran.code, ran.stderr).toBe(3);
    expect(agent.requests).toHaveLength(4);
    expect(judge.requests).toHaveLength(2);
    const out = lines(ran.stdout);
    const start = out.find((line) => line.type === 'goal_start')!;
    expect(start.caps).toMatchObject({ maxTurns: 2, maxCost: 5, maxTokens: 2_000_000, maxMs: 3_600_000 });
    const refused = out.find((line) => line.type === 'tool_call_end')!;
    expect(refused).toMatchObject({ name: 'bash', status: 'denied' });
    expect(String(refused.output)).toContain('starts no new work');
    expect(JSON.stringify(agent.requests[2]!.messages)).toContain('Do not start new work');
    const end = out.find((line) => line.type === 'goal_end')!;
    expect(end).toMatchObject({ outcome: 'cap' });
    expect(String(end.reason)).toContain('the turn cap (2 of 2 turns)');
    expect(String(end.report)).toContain('Evidence: none accepted');
    expect(String(end.report)).toMatch(/Cost by agent: .*judge: /);
  });

  it('a goal stops at its cost cap, the judge counted, with one wrap-up turn and exit 3', async () => {
    const { agent, judge, run } = await setup(
      [{ text: 'Working.', usage: { inputTokens: 1000, outputTokens: 100 } }, { text: 'Stopping as told.', usage: { inputTokens: 1100, outputTokens: 50 } }],
      [judged('not_met', 'nothing checked yet')],
      { prices: true },
    );
    // One turn ($0.0012) and its judgement ($0.00036) pass the $0.0015 cap together, neither alone.
    const ran = await run(['--goal', 'npm test passes', '--goal-max-cost', '0.0015', '--json']);
    expect(ran.code, ran.stderr).toBe(3);
    expect(agent.requests).toHaveLength(2);
    expect(judge.requests).toHaveLength(1);
    const end = lines(ran.stdout).find((line) => line.type === 'goal_end')!;
    expect(end).toMatchObject({ outcome: 'cap' });
    expect(String(end.reason)).toContain('the cost cap');
    expect((end.spent as { judgeCost: number }).judgeCost).toBeGreaterThan(0);
  });

  it('three identical judge reasons in a row stop the goal as blocked, exit 3', async () => {
    const reason = 'npm test fails: done.txt is not done';
    const { agent, judge, run } = await setup(
      [{ text: 'First try.' }, { text: 'Second try.' }, { text: 'Third try.' }],
      [judged('not_met', reason), judged('not_met', reason), judged('not_met', reason)],
    );
    const ran = await run(['--goal', 'npm test passes', '--json']);
    expect(ran.code, ran.stderr).toBe(3);
    expect(agent.requests).toHaveLength(3);
    expect(judge.requests).toHaveLength(3);
    const end = lines(ran.stdout).find((line) => line.type === 'goal_end')!;
    expect(end).toMatchObject({ outcome: 'blocked' });
    expect(String(end.reason)).toContain('the same reason 3 turns in a row');
  });

  it('a resumed session does not continue its unfinished goal headless without --continue-goal, and does with it', async () => {
    const { agent, judge, run } = await setup(
      [{ text: 'Starting.' }, { text: 'Answering the question only.' }, writeDone, { text: 'Done now.' }],
      [{ kind: 'silent' }, askChecks('npm test'), judged('met', 'npm test passes', passed)],
    );
    // The first run is cancelled while the judge thinks: its goal stays unfinished.
    const first = await run(['--goal', 'npm test passes'], (child) => {
      void judge.waitForRequest(1).then(() => child.kill('SIGINT'));
    });
    expect(first.code, first.stderr).toBe(130);
    const second = await run(['--continue', 'what is left?']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('unfinished goal ("npm test passes"');
    expect(second.stderr).toContain('pass --continue-goal');
    expect(agent.requests).toHaveLength(2);
    expect(judge.requests).toHaveLength(1);
    const third = await run(['--continue', '--continue-goal', '--json']);
    expect(third.code, third.stderr).toBe(0);
    expect(judge.requests).toHaveLength(3);
    const out = lines(third.stdout);
    expect(out.find((line) => line.type === 'goal_start')).toMatchObject({ resumed: true, condition: 'npm test passes' });
    expect(out.find((line) => line.type === 'goal_end')).toMatchObject({ outcome: 'met' });
  });

  it('blocked on an approval nobody can give, a headless goal stops at once with exit 4 instead of asking again', async () => {
    const { agent, judge, home, run } = await setup([writeDone, { text: 'The write was refused.' }], [], { asks: true });
    const ran = await run(['--goal', 'npm test passes', '--json']);
    expect(ran.code, ran.stderr).toBe(4);
    expect(agent.requests).toHaveLength(2);
    expect(judge.requests).toHaveLength(0);
    expect(home.sessionFiles()).toHaveLength(1);
    const end = lines(ran.stdout).find((line) => line.type === 'goal_end')!;
    expect(end).toMatchObject({ outcome: 'blocked' });
    expect(String(end.reason)).toContain('an approval nobody can give');
    expect(ran.stderr).toContain('needed approval');
  });
});
