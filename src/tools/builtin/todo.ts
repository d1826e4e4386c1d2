import type { z } from 'zod';
import type { Message } from '../../contracts/messages.js';
import type { Tool } from '../../contracts/tool.js';
import { defineTool } from '../define-tool.js';
import { validate as validTodoWrite } from '../validators/todo_write.js';
import type { Zod } from '../zod-loader.js';
import { TodoList, type TodoItem } from './todo-list.js';

const todoWriteParameters = (z: Zod) =>
  z.object({
    todos: z
      .array(z.object({ content: z.string().min(1).describe('What to do, in a short imperative line.'), status: z.enum(['pending', 'in_progress', 'completed']) }))
      .describe('The whole list, replacing the previous one.'),
  });

// The schema and the plain type in todo-list.ts must agree (checked here at compile time).
const agrees: TodoItem[] = [] as z.infer<ReturnType<typeof todoWriteParameters>>['todos'];
void agrees;

export { TodoList, type TodoItem };

/** The list as the last `todo_write` call in a history left it (a resumed session). */
export function restoreTodos(list: TodoList, messages: readonly Message[]): void {
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls) {
      const items = todosOfCall(call.name, call.arguments);
      if (items) list.items = items;
    }
  }
}

/** The list a `todo_write` call sets, from its raw arguments; undefined for any other call or bad arguments. */
export function todosOfCall(name: string, rawArguments: string): TodoItem[] | undefined {
  if (name !== 'todo_write') return undefined;
  try {
    // The check compiled at build time (test/tool-validators.test.ts holds it to the schema): the TUI and ACP follow the list without zod.
    const args: unknown = JSON.parse(rawArguments);
    return validTodoWrite(args) ? (args as { todos: TodoItem[] }).todos : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `todo_write` and `todo_read`: a checklist the model keeps for a multi-step task. Both touch
 * nothing outside the run (only this list), so they count as read-only and run in plan mode.
 */
export function createTodoTools(list: TodoList): Tool[] {
  return [
    defineTool({
      name: 'todo_write',
      description:
        'Replace your checklist for this task (send the whole list). Use it for work of three or more steps: ' +
        'mark one item in_progress while you work on it and completed as soon as it is done. The user sees the list.',
      parameters: todoWriteParameters,
      readOnly: true,
      async execute({ todos }) {
        list.items = todos;
        return list.render();
      },
    }),
    defineTool({
      name: 'todo_read',
      description: 'Your checklist for this task, as you last wrote it.',
      parameters: (z) => z.object({}),
      readOnly: true,
      execute: async () => list.render(),
    }),
  ];
}
