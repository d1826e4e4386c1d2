import { describe, expect, it } from 'vitest';
import { createTodoTools, restoreTodos, TodoList } from '../src/tools/builtin/todo.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { runScenario, ofType } from './support/harness.js';

const write = (todos: unknown) => ({ toolCalls: [{ name: 'todo_write', arguments: { todos } }] });

describe('the todo list', () => {
  it('is written whole, read back, and restored from a resumed history', async () => {
    const list = new TodoList();
    const { result, events } = await runScenario(
      [write([{ content: 'read the code', status: 'completed' }, { content: 'fix the bug', status: 'in_progress' }]), { toolCalls: [{ name: 'todo_read', arguments: {} }] }, { text: 'done' }],
      { tools: new ToolRegistry(createTodoTools(list)) },
    );
    expect(ofType(events, 'tool_call_end').map((event) => event.output)).toEqual(['[x] read the code\n[~] fix the bug', '[x] read the code\n[~] fix the bug']);
    const restored = new TodoList();
    restoreTodos(restored, result.messages);
    expect(restored.items).toEqual(list.items);
  });

  it('refuses a list that breaks the schema, and the list stays as it was', async () => {
    const list = new TodoList();
    const { events } = await runScenario([write([{ content: 'x', status: 'maybe' }]), { text: 'ok' }], { tools: new ToolRegistry(createTodoTools(list)) });
    expect(ofType(events, 'tool_call_end')[0]).toMatchObject({ status: 'error', output: expect.stringMatching(/Invalid arguments for todo_write/) });
    expect(list.items).toEqual([]);
  });
});
