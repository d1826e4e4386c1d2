/** The judge's evidence rule: "met" holds only when each cited item matches a check it ran. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCheckRunner } from '../src/conversation/goal/goal-checks.js';
import { evidenceProblem } from '../src/conversation/goal/goal-judge.js';
import { GoalLedger } from '../src/conversation/goal/goal-ledger.js';
import { emptyUsage } from '../src/contracts/messages.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const workspace = () => {
  const dir = mkdtempSync(join(tmpdir(), 'goal-evidence-'));
  dirs.push(dir);
  return dir;
};

describe('goal evidence', () => {
  it('a cited file line must be a line of a file the judge read; commands run only from the allowed list', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'CHANGELOG.md'), '# Changes\n- 2.0: dates parse in any zone\n');
    writeFileSync(join(dir, '.env'), 'KEY=secret\n');
    const run = createCheckRunner({ workspace: dir, allowed: ['node --version'], env: { PATH: process.env.PATH ?? '' } });
    const read = await run('read:CHANGELOG.md');
    expect(read).toMatchObject({ exitCode: 0, output: '1: # Changes\n2: - 2.0: dates parse in any zone\n3: ' });
    expect(evidenceProblem([{ file: 'CHANGELOG.md', line: 2, text: 'dates parse in any zone' }], [read])).toBeUndefined();
    expect(evidenceProblem([{ file: 'CHANGELOG.md', line: 1, text: 'dates parse in any zone' }], [read])).toContain('does not say');
    expect(evidenceProblem([{ file: 'README.md', line: 1, text: 'x' }], [read])).toContain('did not read');
    expect(evidenceProblem([{ check: 'node --version', exit_code: 0 }], [read])).toContain('which it did not run');
    expect((await run('read:.env')).output).toContain('refused');
    expect((await run('read:../outside.txt')).output).toContain('outside the workspace');
    expect((await run('rm -rf .')).output).toContain('refused: not an allowed check');
    const node = await run('node --version');
    expect(node.exitCode).toBe(0);
    expect(evidenceProblem([{ check: 'node --version', exit_code: 1 }], [node])).toContain('it exited 0');
  });

  it('read:PATH opens the file where it really leads: a link to a secret or out of the workspace shows no text', async () => {
    const dir = workspace();
    const outside = workspace();
    writeFileSync(join(dir, '.env'), 'KEY=IN-THE-ENV-FILE\n');
    writeFileSync(join(outside, 'notes.txt'), 'OUTSIDE-TEXT\n');
    symlinkSync('.env', join(dir, 'notes.md'));
    symlinkSync(outside, join(dir, 'vendor'));
    mkdirSync(join(dir, 'folder'));
    const run = createCheckRunner({ workspace: dir, allowed: [], env: { PATH: process.env.PATH ?? '' } });
    for (const path of ['notes.md', 'vendor/notes.txt', 'folder']) {
      const read = await run(`read:${path}`);
      expect(read.exitCode).toBe(-1);
      expect(read.output).toMatch(/^refused: /);
      expect(read.output).not.toMatch(/IN-THE-ENV-FILE|OUTSIDE-TEXT/);
    }
  });

  it('the ledger counts the judge in the cost cap and sees the same reason N turns in a row', () => {
    const ledger = new GoalLedger({ maxCost: 1, maxTokens: 1_000_000, maxTurns: 10, maxMs: 3_600_000 }, 3);
    ledger.agentTurn(emptyUsage(), 0.6);
    expect(ledger.capReached()).toBeUndefined();
    ledger.judged(emptyUsage(), 0.5);
    expect(ledger.capReached()).toContain('the cost cap');
    expect(ledger.stalled('Tests fail', 'a')).toBeUndefined();
    expect(ledger.stalled('tests fail ', 'b')).toBeUndefined();
    expect(ledger.stalled('TESTS FAIL', 'c')).toContain('the same reason 3 turns in a row');
  });
});
