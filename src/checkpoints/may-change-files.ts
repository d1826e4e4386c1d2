import type { ToolCall } from '../contracts/messages.js';
import type { Tool } from '../contracts/tool.js';

/** Whether a call may change the workspace's files: an edit or a command may; a read or a fetch cannot; an unknown tool may. */
export function mayChangeFiles(tools: { get(name: string): Tool | undefined }, call: ToolCall): boolean {
  const category = tools.get(call.name)?.permission.category;
  return category === undefined || category === 'edit' || category === 'execute';
}
