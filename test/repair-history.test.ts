import { describe, expect, it } from 'vitest';
import { HistoryRepairer, repairHistory } from '../src/core/repair-history.js';
import type { AssistantMessage, Message, ToolMessage } from '../src/contracts/messages.js';
import { run } from '../src/core/loop.js';
import { ScriptedProvider } from '../src/providers/scripted.js';

const user = (content: string): Message => ({ role: 'user', content });
const calls = (...ids: string[]): AssistantMessage => ({ role: 'assistant', content: '', toolCalls: ids.map((id) => ({ id, name: 'read', arguments: '{}' })) });
const result = (id: string, content = `out ${id}`): ToolMessage => ({ role: 'tool', toolCallId: id, name: 'read', content, isError: false });
const answer = (content: string): AssistantMessage => ({ role: 'assistant', content, toolCalls: [] });

describe('repairHistory', () => {
  it('leaves a sound history alone: same array, no repairs', () => {
    const history = [user('go'), calls('a', 'b'), result('a'), result('b'), answer('done'), user('again'), user('and again')];
    const repaired = repairHistory(history);
    expect(repaired.repairs).toEqual([]);
    expect(repaired.messages).toBe(history);
  });

  it('answers an unanswered call with a cancelled error result right after its assistant message', () => {
    const history = [user('go'), calls('a', 'b'), result('a'), user('resumed')];
    const { messages, repairs } = repairHistory(history);
    expect(messages.map((m) => (m.role === 'tool' ? `tool:${m.toolCallId}` : m.role))).toEqual(['user', 'assistant', 'tool:a', 'tool:b', 'user']);
    expect(messages[3]).toMatchObject({ role: 'tool', toolCallId: 'b', name: 'read', isError: true });
    expect((messages[3] as ToolMessage).content).toMatch(/cancelled/);
    expect(repairs).toEqual(['added a cancelled result for unanswered call b (read)']);
  });

  it('answers a dangling call at the very end of the history', () => {
    const { messages, repairs } = repairHistory([user('go'), calls('z')]);
    expect(messages).toHaveLength(3);
    expect(messages[2]).toMatchObject({ role: 'tool', toolCallId: 'z', isError: true });
    expect(repairs).toHaveLength(1);
  });

  it('drops a tool result whose call is not before it, and a second result for the same call', () => {
    const history = [user('go'), result('ghost'), calls('a'), result('a'), result('a', 'again'), answer('ok')];
    const { messages, repairs } = repairHistory(history);
    expect(messages).toEqual([user('go'), calls('a'), result('a'), answer('ok')]);
    expect(repairs).toEqual([
      'dropped the result for call ghost (read): no earlier assistant message made that call',
      'dropped the result for call a (read): no earlier assistant message made that call',
    ]);
  });

  it('drops empty assistant messages but keeps one that only calls tools or only has text', () => {
    const history = [user('go'), answer('   '), user('hello'), calls('a'), result('a'), answer('fine')];
    const { messages, repairs } = repairHistory(history);
    expect(messages).toEqual([user('go'), user('hello'), calls('a'), result('a'), answer('fine')]);
    expect(repairs).toEqual(['dropped an empty assistant message (no text, no tool calls) at position 1']);
  });

  it('puts results in call order and pulls a misplaced result back next to its call', () => {
    const history = [user('go'), calls('a', 'b'), result('b'), user('interjection'), result('a')];
    const { messages, repairs } = repairHistory(history);
    expect(messages).toEqual([user('go'), calls('a', 'b'), result('a'), result('b'), user('interjection')]);
    expect(repairs).toEqual(['moved tool results to follow their calls, in call order']);
  });

  it('does not let a result jump over a later assistant message that reuses the call id', () => {
    const history = [user('go'), calls('a'), user('x'), calls('a'), result('a')];
    const { messages } = repairHistory(history);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant', 'tool']);
    expect((messages[2] as ToolMessage).isError).toBe(true);
    expect((messages[5] as ToolMessage).content).toBe('out a');
  });
});

describe('HistoryRepairer: the loop checks only what each round added', () => {
  it('gives what repairHistory gives on the whole history, round after round, also when the new part breaks an old call', () => {
    const repairer = new HistoryRepairer();
    let history: Message[] = [user('go')];
    const rounds: Array<Message[]> = [
      [calls('a'), result('a')],
      [calls('b', 'c'), result('b'), result('c')],
      // A second result for an old call, in the new part only: an orphan there, repaired on the whole.
      [result('a', 'again'), calls('d'), result('d')],
      [calls('e')],
      [answer('done')],
    ];
    for (const added of rounds) {
      history = [...history, ...added];
      const incremental = repairer.repair(history);
      expect(incremental).toEqual(repairHistory(history));
      history = incremental.messages;
    }
    expect(history.filter((m) => m.role === 'tool').map((m) => (m as ToolMessage).toolCallId)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('the loop repairs history before each request', () => {
  it('emits history_repaired and sends the repaired history', async () => {
    const provider = new ScriptedProvider([{ text: 'resumed fine' }]);
    const events: string[] = [];
    const outcome = await run({ provider, model: 'm', input: 'continue', messages: [user('go'), calls('lost')] }, (event) => {
      if (event.type === 'history_repaired') events.push(...event.repairs);
    });
    expect(outcome.answer).toBe('resumed fine');
    expect(events).toEqual(['added a cancelled result for unanswered call lost (read)']);
    expect(provider.requests[0]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(outcome.messages[2]).toMatchObject({ role: 'tool', toolCallId: 'lost', isError: true });
  });
});
