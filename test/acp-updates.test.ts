import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventUpdates } from '../src/acp/event-updates.js';
import { promptText } from '../src/acp/prompt-text.js';
import { replayEvents } from '../src/acp/replay-history.js';
import { acpStopReason } from '../src/acp/stop-reason.js';
import { toolKind } from '../src/acp/tool-call-view.js';
import { createFileTools } from '../src/tools/coding/file-tools.js';
import type { FileAccess } from '../src/tools/coding/shared/file-access.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { createBashTool } from '../src/tools/coding/shell/bash.js';
import { createTodoTools, TodoList } from '../src/tools/builtin/todo.js';
import { fetchUrlTool } from '../src/tools/builtin/fetch-url.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vibe-acp-'));
  dirs.push(dir);
  return dir;
}

describe('ACP translation of our events', () => {
  it('maps a todo_write call to a think tool call and a plan with the same entries', async () => {
    const todo = createTodoTools(new TodoList())[0]!;
    const updates = new EventUpdates({ workspace: '/w', tool: (name) => (name === todo.name ? todo : undefined), readText: async () => undefined });
    const todos = [
      { content: 'read the code', status: 'completed' },
      { content: 'fix the bug', status: 'in_progress' },
    ];
    const out = await updates.updates({ type: 'tool_call_start', turn: 1, call: { id: 'c1', name: 'todo_write', arguments: JSON.stringify({ todos }) } });
    expect(out[0]).toMatchObject({ sessionUpdate: 'tool_call', toolCallId: 'c1', kind: 'think', title: 'Update the plan' });
    expect(out[1]).toEqual({ sessionUpdate: 'plan', entries: todos.map((t) => ({ ...t, priority: 'medium' })) });
  });

  it('takes the kind from the permission category the tool declares', () => {
    const [read, write] = createFileTools();
    expect(toolKind('read_file', read)).toBe('read');
    expect(toolKind('write_file', write)).toBe('edit');
    expect(toolKind('bash', createBashTool())).toBe('execute');
    expect(toolKind('fetch_url', fetchUrlTool)).toBe('fetch');
    expect(toolKind('grep', read)).toBe('search');
    expect(toolKind('mystery', undefined)).toBe('other');
  });

  it('leaves a subagent’s own steps out and maps stop reasons', async () => {
    const updates = new EventUpdates({ workspace: '/w', tool: () => undefined, readText: async () => undefined });
    expect(await updates.updates({ type: 'text_delta', turn: 1, text: 'inner', agent: 'main/task-1' })).toEqual([]);
    expect([acpStopReason('answered'), acpStopReason('turn_limit'), acpStopReason('aborted'), acpStopReason('cost_limit'), acpStopReason('token_limit')]).toEqual([
      'end_turn',
      'max_turn_requests',
      'cancelled',
      'max_tokens',
      'max_tokens',
    ]);
  });

  it('replays a stored history as the events that showed it, user turns included', () => {
    const replay = replayEvents([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'read_file', arguments: '{"path":"x"}' }] },
      { role: 'tool', toolCallId: 'a', name: 'read_file', content: 'no such file', isError: true },
      { role: 'assistant', content: 'done', toolCalls: [] },
    ]);
    expect(replay.map((item) => ('user' in item ? 'user' : item.type))).toEqual(['user', 'tool_call_start', 'tool_call_end', 'text_delta']);
  });

  it('turns links and embedded context into text the loop takes, and says what it leaves out', () => {
    const text = promptText([
      { type: 'text', text: 'look at' },
      { type: 'resource_link', uri: 'file:///w/src/a.ts', name: 'a.ts' },
      { type: 'resource', resource: { uri: 'file:///w/b.ts', text: 'const b = 1;' } },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
    ]);
    // Images travel on the message (prompt-images.ts), so the text leaves them out without a note; audio is not taken.
    expect(text).toBe('look at\n\n@/w/src/a.ts\n\nContext from /w/b.ts:\n```\nconst b = 1;\n```\n\n[audio left out: this agent takes text and images only]');
  });
});

describe('the file tools’ FileAccess seam', () => {
  it('reads and writes through the access given, still confined to the workspace', async () => {
    const ws = workspace();
    writeFileSync(join(ws, 'a.txt'), 'on disk\n');
    const buffers = new Map([[join(ws, 'a.txt'), 'in the buffer\n']]);
    const calls: string[] = [];
    const files: FileAccess = {
      read: async (absolute) => {
        calls.push(`read ${absolute}`);
        return Buffer.from(buffers.get(absolute) ?? readFileSync(absolute, 'utf8'));
      },
      write: async (absolute, bytes) => {
        calls.push(`write ${absolute}`);
        buffers.set(absolute, Buffer.from(bytes).toString('utf8'));
      },
    };
    const registry = new ToolRegistry(createFileTools({ files }));
    const invoke = (name: string, args: unknown) => registry.invoke({ id: name, name, arguments: JSON.stringify(args) }, { workspace: ws });
    expect((await invoke('read_file', { path: 'a.txt' })).content).toContain('in the buffer');
    expect((await invoke('edit_file', { path: 'a.txt', old_string: 'buffer', new_string: 'editor' })).isError).toBe(false);
    expect(buffers.get(join(ws, 'a.txt'))).toBe('in the editor\n');
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('on disk\n');
    const outside = await invoke('read_file', { path: '../elsewhere.txt' });
    expect(outside.content).toContain('outside the workspace');
    expect(calls.every((call) => call.endsWith(join(ws, 'a.txt')))).toBe(true);
  });
});
