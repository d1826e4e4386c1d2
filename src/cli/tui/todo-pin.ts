import type { AgentEvent } from '../../contracts/events.js';
import type { Message } from '../../contracts/messages.js';
import { restoreTodos, TodoList, todosOfCall, type TodoItem } from '../../tools/builtin/todo.js';
import { shown } from '../display/describe-event.js';
import type { Theme } from '../display/theme.js';

/** The model's checklist, pinned above the prompt: followed from its `todo_write` calls (and a resumed history). */
export class TodoPin {
  private items: TodoItem[] = [];

  constructor(messages: readonly Message[] = []) {
    const list = new TodoList();
    restoreTodos(list, messages);
    this.items = list.items;
  }

  /** Only the top agent's list is pinned: a subagent's checklist is its own business. */
  track(event: AgentEvent): void {
    if (event.type !== 'tool_call_start' || event.agent) return;
    this.items = todosOfCall(event.call.name, event.call.arguments) ?? this.items;
  }

  lines(theme: Theme): string[] {
    return this.items.map((item) => {
      const text = shown(item.content).replaceAll('\n', ' ');
      if (item.status === 'completed') return theme.dim(`  ✓ ${text}`);
      return item.status === 'in_progress' ? theme.yellow(`  ▸ ${text}`) : `  ○ ${text}`;
    });
  }
}
