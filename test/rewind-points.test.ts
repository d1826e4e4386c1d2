import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '../src/checkpoints/checkpoint-log.js';
import { defaultRewindPoint, rewindPoints } from '../src/checkpoints/rewind-points.js';
import type { RawRecord } from '../src/session/read-session.js';

const run = (input: string): RawRecord[] => [{ type: 'system_prompt', content: 's' }, { type: 'run_start', input }, { type: 'turn_start', turn: 1 }];
const turn = (n: number, runNumber: number, at = `2026-12-04T10:0${n}:00.000Z`): Checkpoint => ({ n, at, kind: 'turn', tree: `t${n}`, tooLarge: [], run: runNumber, turn: 1, prompt: '' });

describe('rewind points', () => {
  it('one per prompt (subagents left out) and one per rewind, in the order they happened; the default is the last prompt still in the conversation', () => {
    const records: RawRecord[] = [{ type: 'session' }, ...run('first'), { type: 'run_start', input: 'child', agent: 'main/task-1' }, ...run('second')];
    // first: records 1–3, the child's run_start 4, second: 5–7. A rewind to before "second" cuts at 5.
    records.push({ type: 'rewind', toRecord: 5 });
    const afterRewind = records.length;
    records.push(...run('third'));
    const checkpoints: Checkpoint[] = [turn(1, 1), turn(2, 3), { n: 3, at: '2026-12-04T10:05:00.000Z', kind: 'rewind', tree: 't3', tooLarge: [], toRecord: 8 }];
    const points = rewindPoints(records, { checkpoints, lefts: [] });
    expect(points.map((p) => [p.n, p.kind, p.prompt, p.live, p.checkpoint?.n, p.keepRecords])).toEqual([
      [1, 'prompt', 'first', true, 1, 1],
      [2, 'prompt', 'second', false, 2, 5],
      [3, 'rewind', undefined, true, 3, 8],
      // "third" ran no tools and nothing was captured after it: only the conversation can go back.
      [4, 'prompt', 'third', true, undefined, afterRewind],
    ]);
    expect(points[3]!.at).toBeUndefined();
    expect(defaultRewindPoint(points)?.n).toBe(4);

    // Rewinding before "third", then before "first": nothing is left to go back before.
    records.push({ type: 'rewind', toRecord: afterRewind });
    expect(defaultRewindPoint(rewindPoints(records, { checkpoints, lefts: [] }))?.prompt).toBe('first');
    records.push({ type: 'rewind', toRecord: 1 });
    expect(defaultRewindPoint(rewindPoints(records, { checkpoints, lefts: [] }))).toBeUndefined();
    // Undoing that last rewind (back to the records as they were before it) brings "first" back.
    records.push({ type: 'rewind', toRecord: records.length - 1 });
    expect(rewindPoints(records, { checkpoints, lefts: [] }).filter((p) => p.live && p.kind === 'prompt').map((p) => p.prompt)).toEqual(['first']);
  });

  it('a prompt that ran no tools restores to the first capture after it, a later run\'s or a rewind\'s', () => {
    const records: RawRecord[] = [{ type: 'session' }, ...run('question'), ...run('edit')];
    const points = rewindPoints(records, { checkpoints: [turn(1, 2)], lefts: [] });
    expect(points.map((p) => [p.prompt, p.checkpoint?.n, p.own?.first.n])).toEqual([
      ['question', 1, undefined],
      ['edit', 1, 1],
    ]);
  });
});
