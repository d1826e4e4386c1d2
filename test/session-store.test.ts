import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../src/contracts/messages.js';
import { defineTool } from '../src/tools/define-tool.js';
import { z } from 'zod';
import { normalizeResumeFlag } from '../src/cli/args/session-args.js';
import { findSession, listSessions } from '../src/session/list-sessions.js';
import { sessionsDir, workspaceKey } from '../src/session/paths.js';
import { parseSessionText, readSessionFile } from '../src/session/read-session.js';
import { rebuildHistory } from '../src/session/rebuild-history.js';
import { collectSecrets, createRedactor } from '../src/session/redact.js';
import { createSession, withSystemPrompt } from '../src/session/session-store.js';
import { resumeSession } from '../src/session/resume-session.js';
import { runScenario } from './support/harness.js';

const temps: string[] = [];
function tempDir(prefix = 'vibe-session-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function lines(path: string) {
  return readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });
}

describe('session files', () => {
  it('live under $XDG_DATA_HOME/vibe-agent/sessions/<slug-hash>/ and a symlinked workspace shares its key', () => {
    const root = tempDir();
    const workspace = join(root, 'My Project');
    mkdirSync(workspace);
    symlinkSync(workspace, join(root, 'link'));
    expect(workspaceKey(workspace)).toMatch(/^my-project-[0-9a-f]{10}$/);
    expect(workspaceKey(join(root, 'link'))).toBe(workspaceKey(workspace));
    expect(sessionsDir(workspace, { XDG_DATA_HOME: '/data' })).toBe(`/data/vibe-agent/sessions/${workspaceKey(workspace)}`);
    expect(sessionsDir(workspace, { HOME: '/home/u' })).toBe(`/home/u/.local/share/vibe-agent/sessions/${workspaceKey(workspace)}`);
  });

  it('record a run through the real provider path; the rebuilt history equals the messages the loop held', async () => {
    const workspace = tempDir();
    const env = { XDG_DATA_HOME: tempDir() };
    const session = createSession({ workspace, env });
    session.writer.append({ type: 'system_prompt', content: 'You are a test.' });
    const echo = defineTool({ name: 'echo', description: 'echo', parameters: z.object({ text: z.string() }), readOnly: true, execute: async ({ text }) => text });
    const { result } = await runScenario(
      [{ toolCalls: [{ name: 'echo', arguments: { text: 'one' } }, { name: 'echo', arguments: { text: 'two' } }] }, { text: 'done' }],
      { toolList: [echo], system: 'You are a test.', onEvent: (event) => session.writer.record(event) },
    );
    session.close();
    const records = lines(session.path);
    expect(records[0]).toMatchObject({ type: 'session', version: 2, id: session.id });
    expect(records.map((r) => r.type)).not.toContain('text_delta');
    expect(records.filter((r) => r.type === 'turn_end')).toHaveLength(2);
    const read = readSessionFile(session.path);
    expect(read.warnings).toEqual([]);
    expect(rebuildHistory(read.records).messages).toEqual(result.messages);
  });

  it('redacts secrets from the environment and --api-key on write, even from a tool that echoes them', async () => {
    const workspace = tempDir();
    const secret = 'sk-live-abcdefghijklmnop';
    const env = { XDG_DATA_HOME: tempDir(), SERVICE_API_KEY: secret, GITHUB_TOKEN: 'ghp_"quoted\\token', SHORT_KEY: 'abc', PATH: '/usr/bin' };
    const redact = createRedactor(collectSecrets(env, ['cli-flag-key-123']));
    const session = createSession({ workspace, env, redact });
    const leak = defineTool({
      name: 'leak',
      description: 'prints the key',
      parameters: z.object({}),
      readOnly: true,
      execute: async () => `key=${env.SERVICE_API_KEY} token=${env.GITHUB_TOKEN} flag=cli-flag-key-123`,
    });
    await runScenario([{ toolCalls: [{ name: 'leak', arguments: { hint: env.GITHUB_TOKEN } }] }, { text: `I saw ${secret}` }], {
      toolList: [leak],
      input: `use ${secret}`,
      onEvent: (event) => session.writer.record(event),
    });
    session.close();
    const text = readFileSync(session.path, 'utf8');
    expect(text).not.toContain(secret);
    expect(text).not.toContain('cli-flag-key-123');
    expect(text).not.toContain('quoted');
    expect(text).toContain('key=[redacted] token=[redacted] flag=[redacted]');
    expect(text).toContain('I saw [redacted]');
    // Values under 8 characters and non-secret names are left alone.
    expect(collectSecrets(env)).toEqual([secret, 'ghp_"quoted\\token']);
  });
});

describe('the turn_end event', () => {
  it('follows each turn with exactly the messages appended, even when the run is aborted mid-tool', async () => {
    const controller = new AbortController();
    const wait = defineTool({
      name: 'wait',
      description: 'waits until aborted',
      parameters: z.object({}),
      execute: (_args, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
    });
    const { events, result } = await runScenario([{ toolCalls: [{ name: 'wait', arguments: {} }] }], {
      toolList: [wait],
      signal: controller.signal,
      onEvent: (event) => event.type === 'tool_call_start' && controller.abort(),
    });
    expect(events.map((e) => e.type).slice(-3)).toEqual(['tool_call_end', 'turn_end', 'stop']);
    const turnEnd = events.find((e) => e.type === 'turn_end');
    expect(turnEnd).toMatchObject({ turn: 1, messages: result.messages.slice(1) }); // after the user input
    expect(result.messages.at(-1)).toMatchObject({ role: 'tool', isError: true });
  });
});

describe('crash recovery', () => {
  const header = JSON.stringify({ type: 'session', version: 1, id: 's1', workspace: '/w', createdAt: '2026-01-01T00:00:00.000Z' });
  const runStart = JSON.stringify({ type: 'run_start', provider: 'p', model: 'm', tools: [], input: 'hello' });

  it('ignores a torn last line with a warning, and skips a corrupt middle line', () => {
    const torn = parseSessionText(`${header}\n${runStart}\n{"type":"turn_end","turn":1,"mess`, 'f.jsonl');
    expect(torn.records.map((r) => r.type)).toEqual(['session', 'run_start']);
    expect(torn.warnings).toEqual([expect.stringContaining('f.jsonl: ignored an unfinished last line (33 bytes')]);
    const corrupt = parseSessionText(`${header}\nnot json\n${runStart}\n`);
    expect(corrupt.records.map((r) => r.type)).toEqual(['session', 'run_start']);
    expect(corrupt.warnings).toEqual([expect.stringContaining('line 2 is not a valid record')]);
  });

  it('reopening cuts the torn tail, notes it, and the next record starts on its own line', () => {
    const dir = tempDir();
    const path = join(dir, 's1.jsonl');
    writeFileSync(path, `${header}\n${runStart}\n{"type":"turn_e`);
    const resumed = resumeSession(path);
    expect(resumed.warnings).toHaveLength(1);
    expect(resumed.messages).toEqual([{ role: 'user', content: 'hello' }]);
    resumed.writer.append({ type: 'system_prompt', content: 'S' });
    resumed.close();
    const read = readSessionFile(path);
    expect(read.warnings).toEqual([]);
    expect(read.records.map((r) => r.type)).toEqual(['session', 'run_start', 'recovered', 'system_prompt']);
    expect(read.records[2]).toEqual({ type: 'recovered', droppedBytes: 15 });
  });
});

describe('one writer per session', () => {
  it('a second writer is refused while the first runs; a lock left by a killed process is taken over', () => {
    const workspace = tempDir();
    const env = { XDG_DATA_HOME: tempDir() };
    const first = createSession({ workspace, env });
    expect(() => resumeSession(first.path)).toThrow(/is in use by another vibe-agent run \(pid \d+\)/);
    first.close();
    const second = resumeSession(first.path);
    second.close();

    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(first.path.replace('.jsonl', '.lock'), String(dead));
    const third = resumeSession(first.path);
    expect(readFileSync(first.path.replace('.jsonl', '.lock'), 'utf8')).toBe(String(process.pid));
    third.close();
    expect(existsSync(first.path.replace('.jsonl', '.lock'))).toBe(false);
  });
});

describe('rebuildHistory', () => {
  const assistantCall: Message = { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'calc', arguments: '{"x":1}' }] };
  const toolResult: Message = { role: 'tool', toolCallId: 'c1', name: 'calc', content: '1', isError: false };
  const answer: Message = { role: 'assistant', content: 'one', toolCalls: [] };

  it('applies a compaction record: the replaced range becomes the summary message', () => {
    const summary: Message = { role: 'user', content: '[summary] asked for x; calc said 1' };
    const records = [
      { type: 'system_prompt', content: 'S1' },
      { type: 'run_start', input: 'first' },
      { type: 'turn_end', turn: 1, messages: [assistantCall, toolResult] },
      { type: 'turn_end', turn: 2, messages: [answer] },
      { type: 'system_prompt', content: 'S2' },
      { type: 'run_start', input: 'second' },
      { type: 'compaction', turn: 1, tokensBefore: 900, tokensAfter: 100, summary: summary.content, dropped: 4, message: summary, replaced: { from: 1, count: 4 } },
      { type: 'turn_end', turn: 1, messages: [{ role: 'assistant', content: 'two', toolCalls: [] }] },
    ];
    const rebuilt = rebuildHistory(records);
    expect(rebuilt.warnings).toEqual([]);
    expect(rebuilt.messages).toEqual([
      { role: 'system', content: 'S2' },
      summary,
      { role: 'user', content: 'second' },
      { role: 'assistant', content: 'two', toolCalls: [] },
    ]);
  });

  it('warns about and skips a compaction that does not fit, and malformed turn records', () => {
    const rebuilt = rebuildHistory([
      { type: 'run_start', input: 'a' },
      { type: 'compaction', replaced: { from: 0, count: 5 }, summary: 's' },
      { type: 'turn_end', turn: 1, messages: [{ role: 'assistant', content: 1 }] },
    ]);
    expect(rebuilt.messages).toEqual([{ role: 'user', content: 'a' }]);
    expect(rebuilt.warnings).toHaveLength(2);
  });

  it('withSystemPrompt puts the current system prompt in front', () => {
    expect(withSystemPrompt([{ role: 'system', content: 'old' }, answer], 'new')).toEqual([{ role: 'system', content: 'new' }, answer]);
    expect(withSystemPrompt([answer], 'new')).toEqual([{ role: 'system', content: 'new' }, answer]);
  });
});

describe('listing and finding sessions', () => {
  it('lists newest first with turns and tokens; finds by unique prefix; reports ambiguity', () => {
    const workspace = tempDir();
    const env = { XDG_DATA_HOME: tempDir() };
    const older = createSession({ workspace, env, now: new Date('2026-01-01T10:00:00Z') });
    older.writer.append({ type: 'run_start', provider: 'p', model: 'm', tools: [], input: 'old task' });
    older.close();
    const newer = createSession({ workspace, env, now: new Date('2026-01-02T10:00:00Z') });
    newer.writer.append({ type: 'run_start', provider: 'p', model: 'm', tools: [], input: 'new task' });
    const usage = { inputTokens: 100, outputTokens: 20, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
    newer.writer.append({ type: 'usage', turn: 1, usage, total: usage });
    newer.writer.append({ type: 'turn_end', turn: 1, messages: [{ role: 'assistant', content: 'x', toolCalls: [] }] });
    newer.close();

    const listed = listSessions(workspace, env);
    expect(listed.map((s) => s.firstPrompt)).toEqual(['new task', 'old task']);
    expect(listed[0]).toMatchObject({ id: newer.id, turns: 1, runs: 1, inputTokens: 100, outputTokens: 20 });
    expect(listed[0]!.cost).toBeUndefined();
    expect(findSession(workspace, '20260101', env)).toMatchObject({ ok: true, session: { id: older.id } });
    expect(findSession(workspace, '2026010', env)).toMatchObject({ ok: false, reason: expect.stringContaining('matches 2 sessions') });
    expect(findSession(workspace, '1999', env)).toMatchObject({ ok: false, matches: [] });
    expect(listSessions(tempDir(), env)).toEqual([]);
  });
});

describe('--resume takes an optional id', () => {
  it('treats the next word as the id only when it looks like one', () => {
    expect(normalizeResumeFlag(['--resume', '20261202-2021', 'go on'])).toEqual(['--resume=20261202-2021', 'go on']);
    expect(normalizeResumeFlag(['--resume', 'go on'])).toEqual(['--resume=', 'go on']);
    expect(normalizeResumeFlag(['x', '--resume'])).toEqual(['x', '--resume=']);
    expect(normalizeResumeFlag(['--resume=abc'])).toEqual(['--resume=abc']);
    expect(normalizeResumeFlag(['--', '--resume'])).toEqual(['--', '--resume']);
  });
});
