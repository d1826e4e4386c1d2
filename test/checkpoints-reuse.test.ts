import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../src/contracts/events.js';
import type { ToolCall } from '../src/contracts/messages.js';
import { SessionCheckpoints } from '../src/checkpoints/session-checkpoints.js';
import { ShadowGit } from '../src/checkpoints/shadow-git.js';
import { withCheckpoints } from '../src/checkpoints/with-checkpoints.js';
import { watchedFileAccess, WriteWatch } from '../src/checkpoints/write-watch.js';
import { diskFileAccess } from '../src/tools/coding/shared/file-access.js';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const call = (name: string): ToolCall => ({ id: `c-${name}`, name, arguments: '{}' });
const reply = (turn: number, calls: ToolCall[]): AgentEvent => ({
  type: 'assistant_message',
  turn,
  finishReason: 'tool_calls',
  message: { role: 'assistant', content: '', toolCalls: calls },
});

/** A workspace and a session file holding its header (and `more` lines), in a temporary folder removed after the test. */
function sessionWorkspace(id: string, more = '') {
  const root = mkdtempSync(join(tmpdir(), 'vibe-ckpt-'));
  dirs.push(root);
  const workspace = join(root, 'ws');
  mkdirSync(workspace);
  const sessionPath = join(root, 'session.jsonl');
  writeFileSync(sessionPath, `${JSON.stringify({ type: 'session', version: 1, id, workspace, createdAt: 'now' })}\n${more}`);
  return { workspace, sessionPath, env: { ...process.env, XDG_DATA_HOME: join(root, 'data') } };
}

describe('checkpoints reuse the last snapshot while nothing could have changed a file', () => {
  it('snapshots the first turn and the turn after a possible change; read-only turns share a tree that is still right to rewind to', async () => {
    const { workspace, env, sessionPath } = sessionWorkspace('s1', `${JSON.stringify({ type: 'run_start', provider: 'p', model: 'm', tools: [], input: 'go' })}\n`);
    writeFileSync(join(workspace, 'a.txt'), 'one');
    const snapshots = vi.spyOn(SessionCheckpoints.prototype, 'snapshot');

    // Turn 1 reads, turn 2 reads, turn 3 writes (the "tool" runs once the event is consumed), turn 4 reads.
    const script: Array<[ToolCall[], (() => void) | undefined]> = [
      [[call('read_file')], undefined],
      [[call('grep'), call('read_file')], undefined],
      [[call('write_file')], () => writeFileSync(join(workspace, 'a.txt'), 'two')],
      [[call('read_file')], undefined],
    ];
    async function* events(): AsyncGenerator<AgentEvent, void> {
      yield { type: 'run_start', provider: 'p', model: 'm', tools: [], input: 'go' };
      for (const [i, [calls, runTool]] of script.entries()) {
        yield { type: 'turn_start', turn: i + 1 };
        yield reply(i + 1, calls);
        runTool?.();
      }
      yield { type: 'stop', reason: 'answered', answer: 'ok', turns: 4, usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } };
    }
    const categories: Record<string, 'read' | 'edit'> = { read_file: 'read', grep: 'read', write_file: 'edit' };
    const seen: AgentEvent[] = [];
    for await (const event of withCheckpoints(events(), {
      workspace,
      env,
      session: () => ({ id: 's1', path: sessionPath }),
      warn: (text) => {
        throw new Error(text);
      },
      mayChangeFiles: (c) => categories[c.name] !== 'read',
    }))
      seen.push(event);

    expect(seen.filter((e) => e.type !== 'turn_start').map((e) => e.type)).toEqual(['run_start', 'assistant_message', 'assistant_message', 'assistant_message', 'assistant_message', 'stop']);
    // Turn 3 (the write; turns 1 and 2 only read, so they share its tree) and the run's end (turn 4 read after the write): two, not five.
    expect(snapshots).toHaveBeenCalledTimes(2);
    const store = new SessionCheckpoints({ workspace, sessionId: 's1', env });
    const [t1, t2, t3, t4] = store.list();
    expect([t2!.tree, t3!.tree]).toEqual([t1!.tree, t1!.tree]);
    expect(t4!.tree).not.toBe(t1!.tree);
    // The shared tree is the workspace before the write: a.txt still "one" in it.
    const shown = await store.git.must(['show', `${t3!.tree}:a.txt`]);
    expect(shown).toBe('one');
    expect(await store.git.must(['show', `${t4!.tree}:a.txt`])).toBe('two');
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('two');
    expect(store.log.read().left).toBe(t4!.tree);
  });

  it('begins the snapshot when the reply starts to stream, so it is taken while the model answers, not after the reply', async () => {
    const { workspace, env, sessionPath } = sessionWorkspace('s4');
    writeFileSync(join(workspace, 'a.txt'), 'before');
    const store = new SessionCheckpoints({ workspace, sessionId: 's4', env });
    const treeCache = join(store.git.gitDir, 'vibe-agent-last-tree');
    let finishedBeforeReply = false;
    let snapshotsBeforeReply: number | undefined;
    const snapshots = vi.spyOn(SessionCheckpoints.prototype, 'snapshot');
    async function* events(): AsyncGenerator<AgentEvent, void> {
      yield { type: 'turn_start', turn: 1 };
      // Not at turn_start (the consumer has seen it by now): git would be spawned before the request is sent.
      snapshotsBeforeReply = snapshots.mock.calls.length;
      yield { type: 'tool_call_delta', turn: 1, index: 0, id: 'c-write_file', name: 'write_file' };
      // The "model" answers only once the snapshot has finished (or after a bound, and the test fails).
      finishedBeforeReply = await waitForFile(treeCache, 60_000);
      // Written after the snapshot and before the tools: the checkpoint is the workspace at the request.
      writeFileSync(join(workspace, 'a.txt'), 'during the request');
      yield reply(1, [call('write_file')]);
      yield { type: 'stop', reason: 'answered', answer: 'ok', turns: 1, usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } };
    }
    const warnings: string[] = [];
    for await (const _ of withCheckpoints(events(), { workspace, env, session: () => ({ id: 's4', path: sessionPath }), warn: (text) => warnings.push(text) }));
    expect(warnings).toEqual([]);
    expect(snapshotsBeforeReply).toBe(0);
    expect(finishedBeforeReply).toBe(true);
    const [t1] = store.list();
    expect(await store.git.must(['show', `${t1!.tree}:a.txt`])).toBe('before');
    // The run's end follows a call that may have changed files: a snapshot of its own.
    expect(await store.git.must(['show', `${store.log.read().left}:a.txt`])).toBe('during the request');
  });

  it('without a predicate every turn with calls takes its own snapshot', async () => {
    const { workspace, env, sessionPath } = sessionWorkspace('s2');
    const snapshots = vi.spyOn(SessionCheckpoints.prototype, 'snapshot');
    async function* events(): AsyncGenerator<AgentEvent, void> {
      yield reply(1, [call('read_file')]);
      yield reply(2, [call('read_file')]);
    }
    for await (const _ of withCheckpoints(events(), { workspace, env, session: () => ({ id: 's2', path: sessionPath }), warn: () => undefined }));
    expect(snapshots).toHaveBeenCalledTimes(2);
  });
});

describe('a run that changes nothing takes no snapshot', () => {
  it('text only, or calls that only read: no git process, no store, no checkpoint; the next run with a write records its own', async () => {
    const { workspace, env, sessionPath } = sessionWorkspace('s6', `${JSON.stringify({ type: 'run_start', provider: 'p', model: 'm', tools: [], input: 'look' })}\n`);
    writeFileSync(join(workspace, 'a.txt'), 'one');
    const snapshots = vi.spyOn(SessionCheckpoints.prototype, 'snapshot');
    const stop: AgentEvent = { type: 'stop', reason: 'answered', answer: 'ok', turns: 2, usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } };
    async function* readOnly(): AsyncGenerator<AgentEvent, void> {
      yield { type: 'run_start', provider: 'p', model: 'm', tools: [], input: 'look' };
      yield { type: 'turn_start', turn: 1 };
      yield { type: 'text_delta', turn: 1, text: 'Looking' };
      yield { type: 'tool_call_delta', turn: 1, index: 0, id: 'c-grep', name: 'grep' };
      yield reply(1, [call('grep'), call('read_file')]);
      yield { type: 'turn_start', turn: 2 };
      yield { type: 'text_delta', turn: 2, text: 'Done' };
      yield stop;
    }
    const target = { workspace, env, session: () => ({ id: 's6', path: sessionPath }), warn: (text: string) => { throw new Error(text); }, mayChangeFiles: (c: ToolCall) => c.name === 'write_file' };
    for await (const _ of withCheckpoints(readOnly(), target));
    expect(snapshots).not.toHaveBeenCalled();
    const store = new SessionCheckpoints({ workspace, sessionId: 's6', env });
    expect(existsSync(store.git.gitDir)).toBe(false);
    expect(store.list()).toEqual([]);

    writeFileSync(sessionPath, `${JSON.stringify({ type: 'run_start', provider: 'p', model: 'm', tools: [], input: 'write' })}\n`, { flag: 'a' });
    async function* writes(): AsyncGenerator<AgentEvent, void> {
      yield { type: 'run_start', provider: 'p', model: 'm', tools: [], input: 'write' };
      yield reply(1, [call('read_file')]);
      yield reply(2, [call('write_file')]);
      writeFileSync(join(workspace, 'a.txt'), 'two');
      yield stop;
    }
    for await (const _ of withCheckpoints(writes(), target));
    // One before the write (turn 1, a read, shares it), one at the run's end.
    expect(snapshots).toHaveBeenCalledTimes(2);
    const [t1, t2] = store.list();
    expect([t1!.run, t1!.turn, t2!.run, t2!.turn]).toEqual([2, 1, 2, 2]);
    expect(t1!.tree).toBe(t2!.tree);
    expect(await store.git.must(['show', `${t1!.tree}:a.txt`])).toBe('one');
    expect(await store.git.must(['show', `${store.log.read().left}:a.txt`])).toBe('two');
  });
});

describe('a snapshot begun for a turn that ran no tool', () => {
  it('has finished by the time the run\'s stop passes: no git process outlives the run', async () => {
    const { workspace, env, sessionPath } = sessionWorkspace('s5');
    writeFileSync(join(workspace, 'a.txt'), 'one');
    const treeCache = join(new SessionCheckpoints({ workspace, sessionId: 's5', env }).git.gitDir, 'vibe-agent-last-tree');
    async function* events(): AsyncGenerator<AgentEvent, void> {
      yield { type: 'turn_start', turn: 1 };
      // A call that may change files begins to stream, then the provider fails before the reply is whole.
      yield { type: 'tool_call_delta', turn: 1, index: 0, id: 'c-write_file', name: 'write_file' };
      yield { type: 'stop', reason: 'provider_error', turns: 1, usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } } as AgentEvent;
    }
    let finishedAtStop: boolean | undefined;
    for await (const event of withCheckpoints(events(), { workspace, env, session: () => ({ id: 's5', path: sessionPath }), warn: () => undefined })) {
      if (event.type === 'stop') finishedAtStop = existsSync(treeCache);
    }
    expect(finishedAtStop).toBe(true);
    // No checkpoint: no turn ran a tool.
    expect(new SessionCheckpoints({ workspace, sessionId: 's5', env }).list()).toEqual([]);
  });
});

async function waitForFile(path: string, limitMs: number): Promise<boolean> {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    if (existsSync(path)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

describe('mayChangeFiles: which calls can change the workspace', () => {
  it('edits, commands, subagent tasks and unknown tools may; reads and fetches cannot', async () => {
    const { mayChangeFiles } = await import('../src/checkpoints/may-change-files.js');
    const { createFileTools, bashTool, createFetchUrlTool, ToolRegistry } = await import('../src/index.js');
    const { createTaskTool } = await import('../src/agents/task-tool.js');
    const { BUILTIN_AGENTS } = await import('../src/agents/agent-definition.js');
    const task = createTaskTool(BUILTIN_AGENTS, async () => 'done');
    const registry = new ToolRegistry([...createFileTools(), bashTool, createFetchUrlTool(), task]);
    const verdict = (name: string) => mayChangeFiles(registry, call(name));
    expect(['read_file', 'fetch_url', 'write_file', 'edit_file', 'bash', 'no_such_tool'].map(verdict)).toEqual([false, false, true, true, true, true]);
    // A task's own category is read (its children's calls are permitted one by one), but what it runs may write.
    expect(task.permission.category).toBe('read');
    expect(verdict('task')).toBe(true);
  });
});

describe('our own data folder inside the workspace (running in a home folder)', () => {
  it('is never snapshotted, so a rewind cannot delete a session file as one the agent created', async () => {
    const root = mkdtempSync(join(tmpdir(), 'vibe-ckpt-home-'));
    dirs.push(root);
    const env = { ...process.env, XDG_DATA_HOME: join(root, '.local', 'share') };
    writeFileSync(join(root, 'notes.txt'), 'mine');
    const store = new SessionCheckpoints({ workspace: root, sessionId: 's3', env });
    // A session file and the store itself now exist inside the workspace.
    mkdirSync(join(root, '.local', 'share', 'vibe-agent', 'sessions'), { recursive: true });
    writeFileSync(join(root, '.local', 'share', 'vibe-agent', 'sessions', 's3.jsonl'), '{}\n');
    const { tree } = await store.snapshot();
    const listed = (await store.git.must(['ls-tree', '-r', '--name-only', tree])).trim().split('\n');
    expect(listed).toEqual(['notes.txt']);
  });

  it('a turn that only writes through the file tools runs before the whole-tree snapshot has read the tree; its checkpoint is the tree before the write', async () => {
    const { workspace, env, sessionPath } = sessionWorkspace('s9', `${JSON.stringify({ type: 'run_start', provider: 'p', model: 'm', tools: [], input: 'go' })}\n`);
    writeFileSync(join(workspace, 'a.txt'), 'one');
    // The snapshot's walk of the workspace waits here until the tool has written.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const must = ShadowGit.prototype.must;
    vi.spyOn(ShadowGit.prototype, 'must').mockImplementation(async function (this: ShadowGit, args, input, options) {
      if (args[0] === 'ls-files') await gate;
      return must.call(this, args, input, options);
    });
    const watch = new WriteWatch();
    const files = watchedFileAccess(diskFileAccess, watch);
    async function* events(): AsyncGenerator<AgentEvent, void> {
      yield { type: 'run_start', provider: 'p', model: 'm', tools: [], input: 'go' };
      yield { type: 'turn_start', turn: 1 };
      yield { type: 'tool_call_delta', turn: 1, index: 0, id: 'c-write_file', name: 'write_file' };
      yield reply(1, [call('write_file')]);
      // The tool: reached only once the reply has passed, which must not wait for the gated snapshot.
      await files.write(join(workspace, 'a.txt'), Buffer.from('two'), {});
      open();
      yield { type: 'stop', reason: 'answered', answer: 'ok', turns: 1, usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } };
    }
    for await (const _ of withCheckpoints(events(), {
      workspace,
      env,
      session: () => ({ id: 's9', path: sessionPath }),
      warn: (text) => {
        throw new Error(text);
      },
      mayChangeFiles: (c) => c.name === 'write_file',
      writes: { watch, onlyThrough: (c) => c.name === 'write_file' },
    }));
    const store = new SessionCheckpoints({ workspace, sessionId: 's9', env });
    const [t1] = store.list();
    expect(await store.git.must(['show', `${t1!.tree}:a.txt`])).toBe('one');
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('two');
  });
});
