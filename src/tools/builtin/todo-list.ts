export type TodoStatus = 'pending' | 'in_progress' | 'completed';

export interface TodoItem {
  content: string;
  status: TodoStatus;
}

const MARKS: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };

/**
 * The model's checklist for one conversation. Kept in the session as the calls that wrote it
 * (`restoreTodos` in todo.ts reads it back). Free of zod, so a run can hold one without loading the tools.
 */
export class TodoList {
  items: TodoItem[] = [];

  render(): string {
    return this.items.length ? this.items.map((item) => `${MARKS[item.status]} ${item.content}`).join('\n') : '(the list is empty)';
  }
}
