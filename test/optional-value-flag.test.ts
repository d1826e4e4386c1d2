import { describe, expect, it } from 'vitest';
import { normalizeOptionalValueFlag } from '../src/cli/args/optional-value-flag.js';
import { normalizeResumeFlag } from '../src/cli/args/session-args.js';
import { normalizeWorktreeFlag } from '../src/cli/args/worktree-flag.js';

describe('a flag with an optional value, rewritten for parseArgs', () => {
  const digits = (argv: string[]) => normalizeOptionalValueFlag(argv, ['-n', '--number'], '--number', (word) => /^\d+$/.test(word));

  it('takes the next word as its value when the rule accepts it, under either name', () => {
    expect(digits(['--number', '12', 'task'])).toEqual(['--number=12', 'task']);
    expect(digits(['-n', '12'])).toEqual(['--number=12']);
  });

  it('stands alone when the next word is not a value, is missing, or the flag is already written with =', () => {
    expect(digits(['--number', 'task'])).toEqual(['--number=', 'task']);
    expect(digits(['task', '-n'])).toEqual(['task', '--number=']);
    expect(digits(['--number=7', 'task'])).toEqual(['--number=7', 'task']);
  });

  it('leaves everything after -- as it is', () => {
    expect(digits(['-n', '1', '--', '-n', '2'])).toEqual(['--number=1', '--', '-n', '2']);
  });

  it('tells the rule whether the word is the last one', () => {
    const seen: boolean[] = [];
    normalizeOptionalValueFlag(['-x', 'a', 'b', '-x', 'c'], ['-x'], '--x', (_word, last) => (seen.push(last), false));
    expect(seen).toEqual([false, true]);
  });
});

describe('the two flags built on it', () => {
  it('--worktree/-w takes a name-shaped word that is not the task (the last word)', () => {
    expect(normalizeWorktreeFlag(['-w', 'fix-1', 'do it'])).toEqual(['--worktree=fix-1', 'do it']);
    expect(normalizeWorktreeFlag(['--worktree', 'do it'])).toEqual(['--worktree=', 'do it']);
    expect(normalizeWorktreeFlag(['-w', 'has space', 'do it'])).toEqual(['--worktree=', 'has space', 'do it']);
  });

  it('--resume takes a session id', () => {
    expect(normalizeResumeFlag(['--resume', '20261202-2021', 'go on'])).toEqual(['--resume=20261202-2021', 'go on']);
    expect(normalizeResumeFlag(['--resume', 'go on'])).toEqual(['--resume=', 'go on']);
  });
});
