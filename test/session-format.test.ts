import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentEvent } from '../src/contracts/events.js';
import type { Message } from '../src/contracts/messages.js';
import { defineTool } from '../src/tools/define-tool.js';
import { readSessionFile, type RawRecord } from '../src/session/read-session.js';
import { rebuildHistory } from '../src/session/rebuild-history.js';
import type { SessionRecord } from '../src/session/records.js';
import { createSession } from '../src/session/session-store.js';
import { resumeSession } from '../src/session/resume-session.js';
import { SessionWriter } from '../src/session/session-writer.js';
import { runScenario } from './support/harness.js';

/**
 * Written by the session code as it was before turn_end stopped repeating the events' messages:
 * four runs (concurrent calls finishing out of call order, an unknown tool, a redacted secret, a
 * prompt-JSON correction, a compaction, an empty reply). The JSON next to it holds the history
 * that code rebuilt at the start of each later run and at the end of the file.
 */
const FIXTURES = join(import.meta.dirname, 'fixtures');
const OLD_FILE = join(FIXTURES, 'v1-duplicated-session.jsonl');
const OLD_HISTORIES = JSON.parse(readFileSync(join(FIXTURES, 'v1-duplicated-session.messages.json'), 'utf8')) as Message[][];

const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vibe-session-format-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The history at the start of each later run (its system_prompt record) and at the end of the file. */
function historiesAtRunStarts(records: RawRecord[]): Message[][] {
  const cuts = records.flatMap((record, index) => (record.type === 'system_prompt' && index > 1 ? [index] : [])).concat(records.length);
  return cuts.map((cut) => {
    const rebuilt = rebuildHistory(records.slice(0, cut));
    expect(rebuilt.warnings).toEqual([]);
    return rebuilt.messages;
  });
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe('session files written before turn_end stopped repeating messages', () => {
  it('resume to the same history as before, at every run of the file', () => {
    const read = readSessionFile(OLD_FILE);
    expect(read.warnings).toEqual([]);
    expect(historiesAtRunStarts(read.records)).toEqual(OLD_HISTORIES);
  });

  it('resume and append in the new format, and the mixed file still rebuilds the old history first', () => {
    const path = join(tempDir(), 'old.jsonl');
    const old = readFileSync(OLD_FILE);
    writeFileSync(path, old);
    const resumed = resumeSession(path);
    expect(resumed.messages).toEqual(OLD_HISTORIES.at(-1));
    resumed.writer.record({ type: 'turn_start', turn: 1 });
    const answer: Message = { role: 'assistant', content: 'appended in the new format', toolCalls: [] };
    resumed.writer.record({ type: 'assistant_message', turn: 1, message: answer, finishReason: 'stop' });
    resumed.writer.record({ type: 'turn_end', turn: 1, messages: [answer] });
    resumed.close();
    expect(readFileSync(path, 'utf8')).toContain('{"type":"turn_end","turn":1,"fromEvents":1,"messages":[]}');
    expect(rebuildHistory(readSessionFile(path).records).messages).toEqual([...OLD_HISTORIES.at(-1)!, answer]);
  });

  it('the same events recorded by today\'s writer rebuild to the same histories, in a smaller file holding each tool output once', () => {
    const old = readSessionFile(OLD_FILE);
    const path = join(tempDir(), 'rerecorded.jsonl');
    const { writer } = SessionWriter.open(path);
    for (const record of old.records) {
      const stored = record as unknown as SessionRecord;
      if (record.type === 'session' || record.type === 'system_prompt') writer.append(stored);
      else writer.record(stored as AgentEvent);
    }
    writer.close();

    const rerecorded = readSessionFile(path);
    expect(historiesAtRunStarts(rerecorded.records)).toEqual(OLD_HISTORIES);
    const text = readFileSync(path, 'utf8');
    for (const end of old.records.filter((record) => record.type === 'tool_call_end')) {
      expect(occurrences(text, JSON.stringify(end.output))).toBe(1);
    }
    // The prompt-JSON correction is in no event, so its turn_end keeps it.
    expect(rerecorded.records.filter((record) => record.type === 'turn_end' && (record.messages as Message[]).length > 0)).toEqual([
      expect.objectContaining({ fromEvents: 1, messages: [expect.objectContaining({ role: 'user', content: expect.stringMatching(/^Your reply was not valid JSON/) })] }),
    ]);
    expect(statSync(path).size).toBeLessThan(statSync(OLD_FILE).size * 0.6);
  });
});

describe('a session recorded now', () => {
  it('holds each assistant text and tool output once and rebuilds the history the loop held', async () => {
    const session = createSession({ workspace: tempDir(), env: { XDG_DATA_HOME: tempDir() } });
    session.writer.append({ type: 'system_prompt', content: 'S' });
    // Resolves the first call only after the second finished: results reach the file out of call order.
    let secondDone!: () => void;
    const afterSecond = new Promise<void>((resolve) => (secondDone = resolve));
    const lookup = defineTool({
      name: 'lookup',
      description: 'looks a word up',
      parameters: z.object({ word: z.string() }),
      readOnly: true,
      execute: async ({ word }) => {
        if (word === 'first') await afterSecond;
        else secondDone();
        return `unique-output-${word}-7f3a`;
      },
    });
    const { result } = await runScenario(
      [{ text: 'unique-reply-text-91c2', toolCalls: [{ name: 'lookup', arguments: { word: 'first' } }, { name: 'lookup', arguments: { word: 'second' } }] }, { text: 'unique-answer-5d0e' }],
      { toolList: [lookup], system: 'S', onEvent: (event) => session.writer.record(event) },
    );
    session.close();

    const text = readFileSync(session.path, 'utf8');
    for (const part of ['unique-output-first-7f3a', 'unique-output-second-7f3a', 'unique-reply-text-91c2']) expect(occurrences(text, part)).toBe(1);
    // The final answer: once as a message, once as the run's result on the stop event.
    expect(occurrences(text, 'unique-answer-5d0e')).toBe(2);
    const read = readSessionFile(session.path);
    expect(read.records.at(-1)).toMatchObject({ type: 'stop', answer: 'unique-answer-5d0e' });
    expect(read.records.filter((record) => record.type === 'tool_call_end').map((record) => record.output)).toEqual(['unique-output-second-7f3a', 'unique-output-first-7f3a']);
    expect(read.records.filter((record) => record.type === 'turn_end')).toEqual([
      { type: 'turn_end', turn: 1, fromEvents: 3, messages: [] },
      { type: 'turn_end', turn: 2, fromEvents: 1, messages: [] },
    ]);
    expect(rebuildHistory(read.records).messages).toEqual(result.messages);
  });

  it('keeps in turn_end what its events do not hold exactly (two calls sharing an id)', () => {
    const path = join(tempDir(), 's.jsonl');
    const { writer } = SessionWriter.open(path);
    const assistant: Message = {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'dup', name: 'echo', arguments: '{"t":"a"}' },
        { id: 'dup', name: 'echo', arguments: '{"t":"b"}' },
      ],
    };
    const results: Message[] = ['a', 'b'].map((content) => ({ role: 'tool', toolCallId: 'dup', name: 'echo', content, isError: false }));
    writer.record({ type: 'run_start', provider: 'p', model: 'm', tools: ['echo'], input: 'go' });
    writer.record({ type: 'turn_start', turn: 1 });
    writer.record({ type: 'assistant_message', turn: 1, message: assistant, finishReason: 'tool_calls' });
    for (const content of ['a', 'b']) writer.record({ type: 'tool_call_end', turn: 1, id: 'dup', name: 'echo', status: 'ok', isError: false, output: content, durationMs: 1 });
    writer.record({ type: 'turn_end', turn: 1, messages: [assistant, ...results] });
    writer.close();

    const read = readSessionFile(path);
    expect(read.records.at(-1)).toEqual({ type: 'turn_end', turn: 1, fromEvents: 1, messages: results });
    expect(rebuildHistory(read.records).messages).toEqual([{ role: 'user', content: 'go' }, assistant, ...results]);
  });

  it('skips a turn whose events are gone with a warning, never half of it', () => {
    const rebuilt = rebuildHistory([
      { type: 'run_start', input: 'go' },
      { type: 'turn_start', turn: 1 },
      { type: 'assistant_message', turn: 1, message: { role: 'assistant', content: 42 } },
      { type: 'turn_end', turn: 1, fromEvents: 1, messages: [] },
    ]);
    expect(rebuilt.messages).toEqual([{ role: 'user', content: 'go' }]);
    expect(rebuilt.warnings).toEqual([expect.stringContaining('(assistant_message) is malformed'), expect.stringContaining("turn 1's messages are not all in its events; the turn was skipped")]);
  });
});
