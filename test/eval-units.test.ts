import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expandJobs, parseShard, shardJobs } from '../src/eval/jobs.js';
import { loadSuite, type EvalTask } from '../src/eval/task.js';
import { wilsonInterval } from '../src/eval/wilson.js';

const task = (id: string): EvalTask => ({ id, prompt: id, suite: '/suite', check: 'true', limits: { maxTurns: 1, timeoutSeconds: 1 } });

describe('shards', () => {
  it('are disjoint, cover every run, and do not depend on the order tasks were listed in', () => {
    const jobs = expandJobs([task('c'), task('a'), task('b')], 3);
    const shards = [1, 2, 3, 4].map((index) => shardJobs(jobs, { index, count: 4 }).map((job) => `${job.task.id}#${job.run}`));
    expect(shards.flat().sort()).toEqual(jobs.map((job) => `${job.task.id}#${job.run}`).sort());
    expect(new Set(shards.flat()).size).toBe(9);
    expect(shardJobs(expandJobs([task('b'), task('a'), task('c')], 3), { index: 2, count: 4 }).map((job) => `${job.task.id}#${job.run}`)).toEqual(shards[1]);
  });

  it('are given as I/N with 1 ≤ I ≤ N', () => {
    expect(parseShard('2/5')).toEqual({ index: 2, count: 5 });
    for (const bad of ['0/3', '4/3', '1/0', '1', 'a/b']) expect(parseShard(bad)).toMatch(/--shard takes I\/N/);
  });
});

describe('the Wilson interval', () => {
  it('stays inside [0, 1] and is wide for few runs', () => {
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
    const [low, high] = wilsonInterval(3, 3);
    expect(high).toBe(1);
    expect(low).toBeCloseTo(0.4385, 3);
    const [l, h] = wilsonInterval(5, 10);
    expect(l).toBeCloseTo(0.2366, 3);
    expect(h).toBeCloseTo(0.7634, 3);
  });
});

describe('task files', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('name the file and the field that is wrong', () => {
    dir = mkdtempSync(join(tmpdir(), 'vibe-suite-'));
    writeFileSync(join(dir, 'one.json'), JSON.stringify({ prompt: 'p', check: 'true', limits: { maxTurns: 0 } }));
    expect(() => loadSuite(dir)).toThrow(/one\.json: limits\.maxTurns/);
    writeFileSync(join(dir, 'one.json'), JSON.stringify({ prompt: 'p', check: 'true', fixture: 'missing' }));
    expect(() => loadSuite(dir)).toThrow(/fixture missing is not a directory/);
  });

  it('default the id to the file name and the limits to 20 turns and 300 s; fixtures are relative to the file', () => {
    dir = mkdtempSync(join(tmpdir(), 'vibe-suite-'));
    mkdirSync(join(dir, 'fx'));
    writeFileSync(join(dir, 'my-task.json'), JSON.stringify({ prompt: 'p', check: 'true', fixture: 'fx', limits: { maxCost: 0.5 } }));
    expect(loadSuite(dir)).toEqual([{ id: 'my-task', prompt: 'p', check: 'true', suite: dir, fixture: join(dir, 'fx'), limits: { maxTurns: 20, maxCost: 0.5, timeoutSeconds: 300 } }]);
  });
});
