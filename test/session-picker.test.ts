import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { pickSession } from '../src/cli/commands/run/session-picker.js';
import { createSession } from '../src/session/session-store.js';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function twoSessions() {
  const root = mkdtempSync(join(tmpdir(), 'vibe-picker-'));
  temps.push(root);
  const env = { XDG_DATA_HOME: join(root, 'data') };
  const ids = ['2026-01-01T10:00:00Z', '2026-01-02T10:00:00Z'].map((at, i) => {
    const session = createSession({ workspace: root, env, now: new Date(at) });
    session.writer.append({ type: 'run_start', provider: 'p', model: 'm', tools: [], input: `task ${i + 1}` });
    session.close();
    return session.id;
  });
  return { workspace: root, env, ids };
}

/** A fake terminal: answers each question when it is asked (never before, or readline drops the line). */
function terminal(answers: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => {
    shown += chunk.toString();
    if (/\? \[.*\] $|: $/.test(shown) && answers.length) input.write(`${answers.shift()}\n`);
  });
  return { io: { input, output, interactive: true }, shown: () => shown };
}

describe('pickSession (--resume without an id)', () => {
  it('in a terminal, lists sessions newest first and asks which one and for the next message', async () => {
    const { workspace, env, ids } = twoSessions();
    const term = terminal(['2', 'carry on']);
    const picked = await pickSession(workspace, undefined, term.io, env);
    expect(picked).toEqual({ id: ids[0], prompt: 'carry on' });
    expect(term.shown().indexOf('task 2')).toBeLessThan(term.shown().indexOf('task 1'));
  });

  it('keeps a prompt given on the command line, and rejects an answer out of range', async () => {
    const { workspace, env, ids } = twoSessions();
    expect(await pickSession(workspace, 'go', terminal(['']).io, env)).toEqual({ id: ids[1], prompt: 'go' });
    const wrong = terminal(['7']);
    expect(await pickSession(workspace, 'go', wrong.io, env)).toEqual({ exitCode: 2 });
    expect(wrong.shown()).toContain('"7" is not a number from 1 to 2');
  });

  it('Ctrl-C while it asks ends the pick at once with exit 130 (nothing is resumed, nothing appended)', async () => {
    const { workspace, env } = twoSessions();
    const term = terminal([]);
    const controller = new AbortController();
    term.io.output.on('data', () => {
      if (term.shown().includes('Resume which session?')) controller.abort();
    });
    expect(await pickSession(workspace, 'go', { ...term.io, signal: controller.signal }, env)).toEqual({ exitCode: 130 });
  });

  it('end of input (Ctrl-D) while it asks exits 2 instead of waiting', async () => {
    const { workspace, env } = twoSessions();
    const term = terminal([]);
    term.io.output.on('data', () => {
      if (term.shown().includes('Resume which session?')) term.io.input.end();
    });
    expect(await pickSession(workspace, 'go', term.io, env)).toEqual({ exitCode: 2 });
  });

  it('without a terminal, prints the list and a hint and exits 2', async () => {
    const { workspace, env, ids } = twoSessions();
    const term = terminal([]);
    expect(await pickSession(workspace, 'go', { ...term.io, interactive: false }, env)).toEqual({ exitCode: 2 });
    expect(term.shown()).toContain(`vibe-agent --resume ${ids[1]} "your next message"`);
  });
});
