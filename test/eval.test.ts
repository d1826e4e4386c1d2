import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { EvalResult } from '../src/eval/result.js';
import type { EvalSummary } from '../src/eval/summarize.js';
import { BUILTIN_SUITE } from '../src/eval/builtin-suite.js';
import { loadSuite } from '../src/eval/task.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { homeEnv, spawnCli, type Ran } from './support/cli-process.js';
import { evalScript } from './support/eval-model.js';

const SUITE = join(import.meta.dirname, 'fixtures', 'eval-suite');
/** Each eval spawns a CLI per run and a check after it: generous, since load decides, not logic. */
const EVAL_TIMEOUT_MS = 180_000;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup(): Promise<{ server: ChatServer; home: string; evalRun: (args: string[]) => Promise<Ran> }> {
  const server = await startChatServer(evalScript(), { checkEcho: false });
  const home = mkdtempSync(join(tmpdir(), 'vibe-eval-test-'));
  cleanups.push(() => server.close(), () => rmSync(home, { recursive: true, force: true }));
  const evalRun = (args: string[]) => spawnCli(['eval', '--suite', SUITE, '--base-url', server.url, '--model', 'test-model', ...args], { cwd: home, env: homeEnv(home) });
  return { server, home, evalRun };
}

function records(path: string): Array<EvalResult | EvalSummary> {
  return readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as EvalResult | EvalSummary);
}

const withoutTimes = (results: EvalResult[]) => results.map(({ wallMs: _wall, ...rest }) => rest);

describe('vibe-agent eval on a scripted model', () => {
  it('solves two tasks, fails one by its check and one by its turn budget, with reasons; below the default (every run passes) it exits 5 naming them', async () => {
    const { home, evalRun } = await setup();
    const out = join(home, 'results.jsonl');
    const ran = await evalRun(['--runs', '2', '--concurrency', '4', '-o', out]);
    expect(ran.code, ran.stderr).toBe(5);
    expect(ran.stderr).toContain('vibe-agent eval: 4 of 8 runs passed (50%), and every run must pass (--min-pass RATE sets a lower bar). Failed:\n  endless #1: turn budget: 2 turns used up\n  endless #2: turn budget: 2 turns used up\n  unsolved #1: check failed (exit 1): AssertionError');
    const all = records(out);
    const results = all.filter((record): record is EvalResult => record.type === 'result');
    expect(results.map((result) => [result.task, result.run, result.passed])).toEqual([
      ['answer-file', 1, true],
      ['answer-file', 2, true],
      ['endless', 1, false],
      ['endless', 2, false],
      ['fix-sum', 1, true],
      ['fix-sum', 2, true],
      ['unsolved', 1, false],
      ['unsolved', 2, false],
    ]);
    expect(results.find((result) => result.task === 'endless')).toMatchObject({ reason: 'turn budget: 2 turns used up', stop: 'turn_limit' });
    expect(results.find((result) => result.task === 'unsolved')?.reason).toMatch(/^check failed \(exit 1\): AssertionError.*solved\.txt is missing/);
    expect(results.find((result) => result.task === 'fix-sum')).toMatchObject({ turns: 3, model: 'test-model', reason: null });
    const overall = all.find((record): record is EvalSummary => record.type === 'summary' && record.task === 'overall')!;
    expect(overall).toMatchObject({ runs: 8, passes: 4, passRate: 0.5, failures: { 'turn budget': 2, 'check failed': 2 } });
    expect(overall.ci95[0]).toBeCloseTo(0.2152, 3);
    expect(overall.ci95[1]).toBeCloseTo(0.7848, 3);
    expect(ran.stdout).toMatch(/\| fix-sum \| 2\/2 \| 100% \| 34%–100% \|/);
    expect(ran.stdout).toMatch(/\| \*\*overall\*\* \| \*\*4\/8\*\* \| \*\*50%\*\* \|/);
    expect(ran.stderr).toContain('[8/8]');
  }, EVAL_TIMEOUT_MS);

  it('shards 1/3, 2/3 and 3/3, merged, equal the whole run', async () => {
    const { home, evalRun } = await setup();
    const whole = join(home, 'whole.jsonl');
    const shards = [1, 2, 3].map((i) => join(home, `shard-${i}.jsonl`));
    const runs = await Promise.all([evalRun(['--runs', '2', '--min-pass', '0.5', '-o', whole]), ...shards.map((file, i) => evalRun(['--runs', '2', '--shard', `${i + 1}/3`, '--min-pass', '0', '-o', file]))]);
    for (const ran of runs) expect(ran.code, ran.stderr).toBe(0);
    const shardResults = shards.map((file) => records(file).filter((record): record is EvalResult => record.type === 'result'));
    expect(shardResults.map((results) => results.length)).toEqual([3, 3, 2]);

    const merged = join(home, 'merged.jsonl');
    const merge = await spawnCli(['eval', 'merge', ...shards, '--min-pass', '50%', '-o', merged], { cwd: home, env: homeEnv(home) });
    expect(merge.code, merge.stderr).toBe(0);
    const strictMerge = await spawnCli(['eval', 'merge', ...shards, '--min-pass', '51%'], { cwd: home, env: homeEnv(home) });
    expect(strictMerge.code).toBe(5);
    expect(strictMerge.stderr).toContain('4 of 8 runs passed (50%), below --min-pass 51%. Failed:');
    const wholeRecords = records(whole);
    const mergedRecords = records(merged);
    const results = (list: Array<EvalResult | EvalSummary>) => list.filter((record): record is EvalResult => record.type === 'result');
    expect(withoutTimes(results(mergedRecords))).toEqual(withoutTimes(results(wholeRecords)));
    const passes = (list: Array<EvalResult | EvalSummary>) => list.filter((record): record is EvalSummary => record.type === 'summary').map(({ task, runs, passes, ci95, failures }) => ({ task, runs, passes, ci95, failures }));
    expect(passes(mergedRecords)).toEqual(passes(wholeRecords));
    expect(merge.stdout).toContain('| **overall** | **4/8** |');
  }, EVAL_TIMEOUT_MS);

  it('stops a run over its time budget and counts it as failed, with the reason', async () => {
    const server = await startChatServer([{ kind: 'silent' }], { checkEcho: false });
    const home = mkdtempSync(join(tmpdir(), 'vibe-eval-test-'));
    cleanups.push(() => server.close(), () => rmSync(home, { recursive: true, force: true }));
    const suite = join(home, 'suite');
    mkdirSync(suite);
    writeFileSync(join(suite, 'slow.json'), JSON.stringify({ prompt: 'TASK slow', check: 'true', limits: { timeoutSeconds: 2 } }));
    const out = join(home, 'out.jsonl');
    const ran = await spawnCli(['eval', '--suite', suite, '--base-url', server.url, '--model', 'test-model', '-o', out], { cwd: home, env: homeEnv(home) });
    expect(ran.code, ran.stderr).toBe(5);
    expect(ran.stderr).toContain('  slow #1: time budget: over 2 s');
    expect(records(out)[0]).toMatchObject({ task: 'slow', passed: false, reason: 'time budget: over 2 s' });
  }, EVAL_TIMEOUT_MS);

  it('a model whose shell rewrites the suite\'s check to exit 0 (found in /proc, sandbox off) still fails the unsolved task, with the reason, and the check is put back', async () => {
    const { server, home } = await setup();
    const suite = join(home, 'suite');
    mkdirSync(join(suite, 'checks'), { recursive: true });
    const check = 'test -f solved.txt || { echo "Error: solved.txt is missing" >&2; exit 1; }\n';
    writeFileSync(join(suite, 'checks', 'tamper.sh'), check);
    writeFileSync(join(suite, 'tamper.json'), JSON.stringify({ prompt: 'TASK tamper: make the check pass.', check: 'sh "$VIBE_EVAL_SUITE/checks/tamper.sh"', tools: 'coding', limits: { maxTurns: 4 } }));
    const out = join(home, 'out.jsonl');
    const env = { ...homeEnv(home), VIBE_SANDBOX: 'off' };
    const ran = await spawnCli(['eval', '--suite', suite, '--base-url', server.url, '--model', 'test-model', '-o', out], { cwd: home, env });
    expect(ran.code, ran.stderr).toBe(5);
    const toolResults = server.requests.flatMap((request) => request.messages.filter((message) => message.role === 'tool').map((message) => String(message.content)));
    expect(toolResults.join('\n'), 'the model did rewrite the check').toContain(`rewrote ${suite}/checks/tamper.sh`);
    const [result] = records(out) as EvalResult[];
    expect(result).toMatchObject({ task: 'tamper', passed: false });
    expect(result!.reason).toMatch(/^the check was changed during the run: checks\/tamper\.sh in the suite/);
    expect(ran.stderr).toContain('tamper #1: the check was changed during the run');
    expect(readFileSync(join(suite, 'checks', 'tamper.sh'), 'utf8')).toBe(check);
  }, EVAL_TIMEOUT_MS);

  it('refuses to merge shards that overlap', async () => {
    const { home, evalRun } = await setup();
    const file = join(home, 'one.jsonl');
    expect((await evalRun(['--shard', '1/4', '--min-pass', '0', '-o', file])).code).toBe(0);
    const merge = await spawnCli(['eval', 'merge', file, file], { cwd: home, env: homeEnv(home) });
    expect(merge.code).toBe(2);
    expect(merge.stderr).toContain('did two shards overlap?');
  }, EVAL_TIMEOUT_MS);
});

describe('eval --min-pass', () => {
  it('at 0 of N passed exits 5 listing every failed task with why; --min-pass 0 exits 0; a bad rate is a usage error before any run', async () => {
    const { home, evalRun } = await setup();
    const suite = join(home, 'failing');
    cpSync(SUITE, suite, { recursive: true });
    for (const solved of ['answer-file.json', 'fix-sum.json']) rmSync(join(suite, solved));
    const run = (args: string[]) => evalRun(['--suite', suite, ...args]);
    const failed = await run(['--json']);
    expect(failed.code, failed.stderr).toBe(5);
    expect(failed.stderr).toMatch(/0 of 2 runs passed \(0%\), and every run must pass[^\n]*Failed:\n {2}endless #1: turn budget: 2 turns used up\n {2}unsolved #1: check failed \(exit 1\): AssertionError[^\n]*solved\.txt is missing/);
    expect(failed.stdout).toContain('"type":"summary"');

    expect((await run(['--min-pass', '0'])).code).toBe(0);
    const bad = await run(['--min-pass', '80']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--min-pass takes a pass rate from 0 to 1 or a percentage (0.8 or 80%), got "80".');
    expect(bad.stderr).not.toContain('[1/');
  }, EVAL_TIMEOUT_MS);
});

describe('the built-in suite', () => {
  it('loads, and every task fails its check on the untouched fixture', () => {
    const tasks = loadSuite(BUILTIN_SUITE);
    expect(tasks.map((task) => task.id)).toEqual([
      'course-multiply',
      'course-page-length',
      'course-time',
      'course-world-cup',
      'fix-failing-test',
      'fix-pagination',
      'grep-bug',
      'implement-from-test',
      'refactor-two-files',
      'shell-output',
    ]);
    for (const task of tasks) {
      const dir = mkdtempSync(join(tmpdir(), 'vibe-eval-fixture-'));
      try {
        if (task.fixture) cpSync(task.fixture, dir, { recursive: true });
        const check = spawnSync(task.check, { cwd: dir, shell: true, env: { ...process.env, VIBE_EVAL_SUITE: task.suite }, encoding: 'utf8' });
        expect(check.status, `${task.id} passes its check before any work`).not.toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }, EVAL_TIMEOUT_MS);
});
