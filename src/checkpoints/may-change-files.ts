import type { ToolCall } from '../contracts/messages.js';
import type { Tool } from '../contracts/tool.js';

/**
 * Whether a call may change the workspace's files: an edit or a command may; so may a tool that
 * runs others (a subagent's task, whose own calls are permitted one by one) and an unknown tool;
 * a read or a fetch cannot.
 */
export function mayChangeFiles(tools: { get(name: string): Tool | undefined }, call: ToolCall): boolean {
  const tool = tools.get(call.name);
  if (!tool || tool.concurrent === true) return true;
  return tool.permission.category === 'edit' || tool.permission.category === 'execute';
}
