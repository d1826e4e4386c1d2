import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Message } from '../src/contracts/messages.js';
import { findForeignSessions } from '../src/session/import/find-foreign-sessions.js';
import { importForeignSession, NotASessionError } from '../src/session/import/import-session.js';
import { readSessionFile } from '../src/session/read-session.js';
import { resumeSession } from '../src/session/resume-session.js';
import { writeForeignStores } from './support/foreign-sessions.js';

const root = mkdtempSync(join(tmpdir(), 'vibe-import-'));
const home = join(root, 'home');
const workspace = join(root, 'workspace');
mkdirSync(home);
mkdirSync(workspace);
const env = { HOME: home, XDG_DATA_HOME: join(home, 'data') };
const files = writeForeignStores(home, workspace);
afterAll(() => rmSync(root, { recursive: true, force: true }));

function resumed(path: string): Message[] {
  const session = resumeSession(path);
  session.close();
  expect(session.warnings).toEqual([]);
  return session.messages;
}

/** Every result follows its call, every call has its result, roles alternate as providers require. */
function checkHistory(messages: Message[]): void {
  const open = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.toolCalls) open.add(call.id);
    if (message.role === 'tool') {
      expect(open.has(message.toolCallId), `result ${message.toolCallId} has its call`).toBe(true);
      open.delete(message.toolCallId);
    }
  }
  expect([...open]).toEqual([]);
  expect(messages[1]?.role).toBe('user');
}

describe('import', () => {
  it('lists the sessions each agent keeps for this workspace, newest first, with title and prompt counts', () => {
    const listed = findForeignSessions(workspace, env);
    expect(listed.map((session) => session.agent).sort()).toEqual(['claude-code', 'codex', 'gemini-cli', 'gemini-cli', 'pi', 'pi']);
    const claude = listed.find((session) => session.agent === 'claude-code')!;
    expect(claude).toMatchObject({ id: 'c1a0de00-0000-4000-8000-000000000001', title: 'Fix off-by-one in add()', turns: 4 });
    expect(listed.find((session) => session.agent === 'codex')).toMatchObject({ id: '0190c0de-0000-7000-8000-000000000002', title: 'Rename foo to bar in util.py', turns: 1 });
    expect(listed.find((session) => session.path.endsWith('.json'))).toMatchObject({ title: 'Hello', turns: 1 });
    const times = listed.map((session) => session.updatedAt.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // Newer Gemini CLI versions name the project's folder and write its path in `.project_root`.
    const named = join(home, '.gemini', 'tmp', 'workspace', 'chats');
    mkdirSync(named, { recursive: true });
    writeFileSync(join(home, '.gemini', 'tmp', 'workspace', '.project_root'), realpathSync(workspace));
    writeFileSync(join(named, 'session-named.json'), readFileSync(files.geminiLegacy));
    expect(findForeignSessions(workspace, env).filter((session) => session.agent === 'gemini-cli')).toHaveLength(3);
    rmSync(join(home, '.gemini', 'tmp', 'workspace'), { recursive: true });
  });

  it('Claude Code: one message per reply, results with their calls, the edited prompt as a branch, the compaction, sidechains', () => {
    const before = statSync(files.claude);
    const out = importForeignSession(files.claude, { workspace, env });
    const s = out.stats!;
    expect({ messages: s.messages, toolCalls: s.toolCalls, mapped: s.mappedCalls, foreign: s.foreignCalls, results: s.results, reasoning: s.reasoning, images: s.images, compactions: s.compactions, branches: s.branches, sidechains: s.sidechains }).toEqual({ messages: 11, toolCalls: 4, mapped: 3, foreign: 1, results: 4, reasoning: 2, images: 2, compactions: 1, branches: 2, sidechains: 2 });
    expect(s.skipped).toEqual({ 'broken line (not JSON)': 1, 'record type "mystery-record"': 1, 'another record of the same reply (its blocks merged into one message)': 5 });
    expect(statSync(files.claude).mtimeMs).toBe(before.mtimeMs);
    const messages = resumed(out.path);
    checkHistory(messages);
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant']);
    expect(messages[1]!.content).toContain('add() was fixed and explained');
    const records = readSessionFile(out.path).records;
    const rewinds = records.filter((record) => record.type === 'rewind');
    expect(rewinds).toHaveLength(1);
    // Before the rewind the other branch is whole: bash, read with its image, edit.
    const first = records.slice(0, records.indexOf(rewinds[0]!));
    const calls = first.filter((record) => record.type === 'assistant_message').flatMap((record) => (record.message as { toolCalls: Array<{ name: string; arguments: string }> }).toolCalls);
    expect(calls.map((call) => call.name)).toEqual(['bash', 'read_file', 'edit_file']);
    expect(JSON.parse(calls[0]!.arguments)).toEqual({ command: 'npm test' });
    expect(first.some((record) => record.type === 'run_start' && record.input === 'Now also add a test')).toBe(true);
    expect(records.find((record) => record.type === 'turn_start')?.origin).toEqual({ agent: 'claude-code', version: '2.0.14', file: files.claude, line: 3 });
    expect(records.filter((record) => record.agent).length).toBeGreaterThan(0);
    expect(records.some((record) => record.type === 'usage' || record.type === 'stop')).toBe(false);
    const thinking = first.find((record) => record.type === 'assistant_message')!.message as Message & { providerData?: { thinking: unknown[] } };
    expect(thinking.providerData).toEqual({ provider: 'claude-code', model: 'claude-sonnet-4-5', thinking: [{ type: 'thinking', thinking: 'Run the tests first.', signature: 'sig-1' }] });
  });

  it('Codex: calls and outputs paired, apply_patch kept foreign, the compacted history, an unanswered call stood in for', () => {
    const out = importForeignSession(files.codex, { workspace, env });
    const s = out.stats!;
    expect({ messages: s.messages, toolCalls: s.toolCalls, mapped: s.mappedCalls, foreign: s.foreignCalls, results: s.results, reasoning: s.reasoning, images: s.images, compactions: s.compactions }).toEqual({ messages: 9, toolCalls: 5, mapped: 4, foreign: 1, results: 4, reasoning: 1, images: 1, compactions: 1 });
    expect(s.skipped).toMatchObject({ 'broken line (not JSON)': 1, 'record type "brand_new_record"': 1, 'tool result without its call': 1, "developer instructions (Codex's own system prompt)": 1, 'server-side web search (its results are not in the rollout)': 1, 'tool call without a result in the source (an error result stands in for it)': 1 });
    const messages = resumed(out.path);
    checkHistory(messages);
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant', 'tool']);
    expect(messages[2]!.content).toBe('Rename foo to bar in util.py\n\nNow run the tests');
    expect(messages.at(-1)).toMatchObject({ role: 'tool', isError: true });
  });

  it('Gemini CLI: upserts by id, $rewindTo and $set, thoughts, tool results inside the reply; the older .json too', () => {
    const out = importForeignSession(files.gemini, { workspace, env });
    const s = out.stats!;
    expect({ messages: s.messages, toolCalls: s.toolCalls, mapped: s.mappedCalls, foreign: s.foreignCalls, results: s.results, reasoning: s.reasoning, images: s.images }).toEqual({ messages: 4, toolCalls: 3, mapped: 2, foreign: 1, results: 3, reasoning: 1, images: 1 });
    expect(s.skipped).toEqual({ 'broken line (not JSON)': 1, 'earlier write of a message rewritten later (upsert by id)': 1, 'message removed by a $rewindTo': 2, 'info notice (not sent to the model)': 1 });
    const messages = resumed(out.path);
    checkHistory(messages);
    expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['What files are here?', 'Read a.txt']);
    const legacy = importForeignSession(files.geminiLegacy, { workspace, env });
    expect(resumed(legacy.path).map((m) => m.content)).toEqual([expect.stringContaining('Imported from Gemini CLI'), 'Hello', 'Hi! How can I help?']);
  });

  it('pi: the id/parentId tree as branches, the aborted reply left out, the compaction keeping its first kept entry; v1 files too', () => {
    const out = importForeignSession(files.pi, { workspace, env });
    const s = out.stats!;
    expect({ messages: s.messages, toolCalls: s.toolCalls, mapped: s.mappedCalls, foreign: s.foreignCalls, results: s.results, reasoning: s.reasoning, images: s.images, compactions: s.compactions, branches: s.branches }).toEqual({ messages: 10, toolCalls: 3, mapped: 2, foreign: 1, results: 3, reasoning: 2, images: 1, compactions: 1, branches: 2 });
    expect(s.skipped).toEqual({ 'empty assistant reply (aborted)': 1, 'entry type "future_entry"': 1 });
    const messages = resumed(out.path);
    checkHistory(messages);
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant', 'tool', 'assistant']);
    expect(messages[2]!.content).toContain('Looked at package.json.');
    expect(messages[2]!.content).toContain('Count the words instead');
    const v1 = importForeignSession(files.piV1, { workspace, env });
    expect(v1.stats!.compactions).toBe(1);
    const old = resumed(v1.path);
    checkHistory(old);
    expect(old.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
  });

  it('importing the same file again is recognised and writes nothing; a file of no known format is refused', () => {
    const sessions = join(env.XDG_DATA_HOME, 'vibe-agent', 'sessions');
    const first = importForeignSession(files.pi, { workspace, env });
    const again = importForeignSession(files.pi, { workspace, env });
    expect(again).toMatchObject({ already: true, sessionId: first.sessionId });
    const bogus = join(root, 'notes.jsonl');
    writeFileSync(bogus, '{"hello":"world"}\n');
    expect(() => importForeignSession(bogus, { workspace, env })).toThrow(NotASessionError);
    expect(() => importForeignSession(bogus, { workspace, env })).toThrow(/is not a Claude Code, Codex, Gemini CLI or pi session file/);
    expect(readFileSync(bogus, 'utf8')).toBe('{"hello":"world"}\n');
    void sessions;
  });
});
