import { mkdtempSync, readFileSync, writeFileSync, appendFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openConversation } from '../src/conversation/open-conversation.js';
import type { ConversationParts } from '../src/conversation/conversation-parts.js';
import type { ConversationEvent } from '../src/conversation/conversation-types.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { createWriteFileTool } from '../src/tools/coding/files/write-file.js';
import { FileReadTracker } from '../src/tools/coding/shared/read-tracker.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { testConversationParts } from './support/conversation-parts.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(script: Parameters<typeof startChatServer>[0]): Promise<{ server: ChatServer; workspace: string; env: NodeJS.ProcessEnv; parts: (over?: Partial<ConversationParts>) => ConversationParts }> {
  const server = await startChatServer(script);
  const root = mkdtempSync(join(tmpdir(), 'conversation-core-'));
  const workspace = join(root, 'ws');
  const env = { VIBE_AGENT_HOME: join(root, 'home'), XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config'), HOME: join(root, 'home') };
  writeFileSync(join(root, 'keep'), '');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(workspace);
  cleanups.push(() => server.close(), () => rmSync(root, { recursive: true, force: true }));
  const tools = new ToolRegistry([createWriteFileTool({}, new FileReadTracker())]);
  const parts = (over: Partial<ConversationParts> = {}): ConversationParts => testConversationParts({ workspace, provider: new OpenAIProvider({ apiKey: 'k', baseURL: server.url }), tools, env, ...over });
  return { server, workspace, env, parts };
}

describe('the conversation core', () => {
  it('numbers every event and writes each stored one to the session file before a subscriber sees it; a reader gets the events after N', async () => {
    const { parts } = await setUp([{ text: 'one' }, { text: 'two' }]);
    const conversation = await openConversation(parts());
    const seen: ConversationEvent[] = [];
    const onFileWhenSeen: boolean[] = [];
    conversation.subscribe((event) => {
      seen.push(event);
      if (event.type === 'assistant_message' || event.type === 'stop') onFileWhenSeen.push(conversation.events(event.seq - 1).some((stored) => stored.seq === event.seq));
    });
    expect((await conversation.prompt('first')).reason).toBe('answered');
    expect((await conversation.prompt('second')).reason).toBe('answered');
    const numbers = seen.map((event) => event.seq);
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));
    expect(onFileWhenSeen).toEqual([true, true, true, true]);
    const firstStop = seen.find((event) => event.type === 'stop')!;
    const after = conversation.events(firstStop.seq);
    expect(after[0]!.type).toBe('run_start');
    expect(after.map((event) => event.type)).toContain('stop');
    expect(after.every((event) => event.seq > firstStop.seq)).toBe(true);
    // Deltas are numbered but not stored: the file's numbers have gaps where they were.
    expect(conversation.events(0).some((event) => event.type === 'text_delta')).toBe(false);
    await conversation.close();
  });

  it('a front end attaching late with `after` gets the stored events first, then the live ones', async () => {
    const { parts } = await setUp([{ text: 'one' }, { text: 'two' }]);
    const conversation = await openConversation(parts());
    await conversation.prompt('first');
    const late: ConversationEvent[] = [];
    conversation.subscribe((event) => late.push(event), { after: 0 });
    const storedCount = late.length;
    expect(late.map((event) => event.type)).toContain('stop');
    await conversation.prompt('second');
    expect(late.length).toBeGreaterThan(storedCount);
    const seqs = late.map((event) => event.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    await conversation.close();
  });

  it('a resumed session continues the count; a run the process died in is recorded as interrupted on the next open', async () => {
    const { parts } = await setUp([{ text: 'one' }, { text: 'two' }]);
    const first = await openConversation(parts());
    await first.prompt('first');
    const path = first.state().path!;
    const last = first.state().lastSeq;
    await first.close();
    // A run that started and never stopped, as a killed process leaves it (with a file from before numbering, too).
    appendFileSync(path, `${JSON.stringify({ type: 'run_start', provider: 'openai', model: 'gpt-4o-mini', tools: [], input: 'lost', seq: last + 1 })}\n`);
    const second = await openConversation(parts({ session: { kind: 'resume', path } }));
    const interrupted = second.events(last + 1);
    expect(interrupted.map((event) => event.type)).toEqual(['interrupted']);
    expect(interrupted[0]!.seq).toBe(last + 2);
    // The rebuild keeps what the file holds of the lost run: its prompt.
    expect(second.history().map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    await second.prompt('second');
    expect(second.events(last + 2)[0]).toMatchObject({ type: 'run_start', seq: last + 3, input: 'second' });
    await second.close();
    // Reopened once more: nothing is in flight, so nothing more is recorded.
    const third = await openConversation(parts({ session: { kind: 'resume', path } }));
    expect(third.events(0).filter((event) => event.type === 'interrupted')).toHaveLength(1);
    await third.close();
  });

  it('an approval goes to every attached front end; the first answer wins, the others are told to stop asking, and it is published once', async () => {
    const { parts, workspace } = await setUp([{ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'hi' } }] }, { text: 'written' }]);
    const conversation = await openConversation(parts());
    const slowStopped: boolean[] = [];
    conversation.questions.attach(
      (_question, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            slowStopped.push(true);
            reject(new Error('answered elsewhere'));
          });
        }),
    );
    // A second front end answers through the desk when it sees the question in the stream.
    conversation.subscribe((event) => {
      if (event.type === 'question') queueMicrotask(() => expect(conversation.questions.answer(event.id, 'yes')).toBe(true));
    });
    const events: ConversationEvent[] = [];
    conversation.subscribe((event) => events.push(event));
    expect((await conversation.prompt('write it')).reason).toBe('answered');
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('hi');
    const asked = events.filter((event) => event.type === 'question');
    const answered = events.filter((event) => event.type === 'question_answered');
    expect(asked).toHaveLength(1);
    expect(answered).toEqual([expect.objectContaining({ answer: 'yes', id: (asked[0] as { id: string }).id })]);
    expect(slowStopped).toEqual([true]);
    expect(conversation.questions.pending()).toEqual([]);
    expect(conversation.questions.answer((asked[0] as { id: string }).id, 'no')).toBe(false);
    await conversation.close();
  });

  it('queued prompts run one after another; a steering prompt stops the running one and goes next', async () => {
    const { server, parts } = await setUp([{ kind: 'stall', reply: { text: 'never finished' }, afterChunks: 1 }, { text: 'steered' }, { text: 'queued' }]);
    const conversation = await openConversation(parts({ session: { kind: 'none' } }));
    const starts: string[] = [];
    conversation.subscribe((event) => {
      if (event.type === 'run_start') starts.push(event.input);
    });
    const slow = conversation.prompt('slow');
    const queued = conversation.prompt('later');
    await server.waitForRequest(1);
    expect(conversation.state()).toMatchObject({ running: true, queued: 1 });
    const steered = conversation.prompt('now', { mode: 'steer' });
    expect((await slow).reason).toBe('aborted');
    expect((await steered).reason).toBe('answered');
    expect((await queued).reason).toBe('answered');
    expect(starts).toEqual(['slow', 'now', 'later']);
    expect(conversation.history().filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['slow', 'now', 'later']);
    await conversation.close();
  });

  it('a refused prompt says where and why and sends nothing; without a session nothing is written', async () => {
    const { server, parts } = await setUp([]);
    const conversation = await openConversation(parts({ session: { kind: 'none' } }));
    const outcome = await conversation.prompt('look', { imagePaths: ['/no/such/picture.png'] });
    expect(outcome).toMatchObject({ reason: 'refused', refusal: { stage: 'images' } });
    expect(server.requests).toHaveLength(0);
    expect(conversation.events(0)).toEqual([]);
    expect(conversation.state().path).toBeUndefined();
    await conversation.close();
  });
});
