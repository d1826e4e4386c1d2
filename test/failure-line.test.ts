import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { failureLine } from '../src/cli/display/failure-line.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { cliHome, type CliHome } from './support/cli-process.js';

const servers: ChatServer[] = [];
const homes: CliHome[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const home of homes.splice(0)) home.cleanup();
});

const FAILING_TEST = [
  "const test = require('node:test');",
  "const assert = require('node:assert');",
  "test('adds numbers', () => { assert.strictEqual(1 + 1, 3); });",
  "test('subtracts', () => { assert.strictEqual(2 - 1, 1); });",
].join('\n');

/** A workspace with one failing and one passing node:test test, run by `npm test`. */
function failingProject(): CliHome {
  const home = cliHome();
  homes.push(home);
  writeFileSync(`${home.workspace}/package.json`, JSON.stringify({ name: 'sums', version: '1.0.0', scripts: { test: 'node --test' } }));
  writeFileSync(`${home.workspace}/add.test.cjs`, FAILING_TEST);
  return home;
}

describe("a failed command's one-line summary names the failure", () => {
  it("the built CLI's line for a failing `node --test` run shows the failed test and its error, not `# duration_ms`", async () => {
    const home = failingProject();
    const server = await startChatServer([{ toolCalls: [{ name: 'bash', arguments: { command: 'node --test' } }] }, { text: 'One test fails.' }]);
    servers.push(server);
    const ran = await home.run(['--yes', 'run the tests'], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' });
    expect(ran.code, ran.stderr).toBe(0);
    const summary = ran.stderr.split('\n').find((line) => line.includes('exit code: 1'));
    expect(summary).toMatch(/✗ exit code: 1 · not ok 1 - adds numbers: Expected values to be strictly equal:/);
    expect(summary).not.toContain('duration_ms');
  }, 60_000);

  it('real `npm test` output of node:test (TAP): the first `not ok` with its error text', () => {
    const home = failingProject();
    let output = '';
    try {
      execFileSync('npm', ['test'], { cwd: home.workspace, env: { ...home.env, npm_config_update_notifier: 'false' }, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      output = `${(error as { stdout: string }).stdout}${(error as { stderr: string }).stderr}`;
    }
    expect(output).toContain('# duration_ms');
    expect(failureLine(output.split('\n'))).toBe('not ok 1 - adds numbers: Expected values to be strictly equal: 2 !== 3');
  }, 60_000);

  it("other runners' markers, and the last real line when there is none", () => {
    const vitest = ['', ' FAIL  test/sum.test.ts > sum > adds', 'AssertionError: expected 2 to be 3', '', ' Test Files  1 failed (1)', '      Tests  1 failed (1)', '   Start at  10:00:00', '   Duration  300ms'];
    expect(failureLine(vitest)).toBe('FAIL  test/sum.test.ts > sum > adds');
    const pytest = ['tests/test_sum.py F', 'FAILED tests/test_sum.py::test_add - assert 2 == 3', '==== 1 failed in 0.02s ===='];
    expect(failureLine(pytest)).toBe('FAILED tests/test_sum.py::test_add - assert 2 == 3');
    const tsc = ['src/a.ts(3,7): error TS2322: Type number is not assignable to type string.'];
    expect(failureLine(tsc)).toBe(tsc[0]);
    const npm = ['Error: boom', 'npm error Lifecycle script `build` failed with error:', 'npm error code 1'];
    expect(failureLine(npm)).toBe('Error: boom');
  });
});

describe('the line of a command that succeeded (issue 41 point 8)', () => {
  it('sums up a passing TAP run by its counts, not its last line "# duration_ms"', async () => {
    const { successLine } = await import('../src/cli/display/failure-line.js');
    const tap = ['TAP version 13', 'ok 1 - sum adds', '1..1', '# tests 1', '# suites 0', '# pass 1', '# fail 0', '# cancelled 0', '# skipped 0', '# todo 0', '# duration_ms 137.6'];
    expect(successLine(tap)).toBe('1 of 1 test passed');
    expect(successLine(['built in 2 s', 'Duration 1.2s'])).toBe('built in 2 s');
    expect(successLine(['hello', ''])).toBe('hello');
  });
});
