import type { ToolCall } from '../contracts/messages.js';
import type { Tool } from '../contracts/tool.js';

/**
 * Whether a call may change the workspace's files: an edit or a command may; so may a tool that
 * runs others (a subagent's task, whose own calls are permitted one by one) and an unknown tool;
 * a read or a fetch cannot; code_nav can only when it renames.
 */
export function mayChangeFiles(tools: { get(name: string): Tool | undefined }, call: ToolCall): boolean {
  const tool = tools.get(call.name);
  if (!tool || tool.concurrent === true) return true;
  // A read tool one of whose operations edits (its rename is put to the policy as an edit of its own).
  if (tool.name === 'code_nav') return operationOf(call) === 'rename';
  return tool.permission.category === 'edit' || tool.permission.category === 'execute';
}

function operationOf(call: ToolCall): unknown {
  try {
    return (JSON.parse(call.arguments) as { operation?: unknown } | null)?.operation;
  } catch {
    return undefined;
  }
}

/**
 * Whether a call changes files only through the file tools' writes (each announced before it lands,
 * see write-watch.ts): write_file, edit_file, and code_nav (its rename).
 */
export function writesOnlyThroughFileTools(call: ToolCall): boolean {
  return call.name === 'write_file' || call.name === 'edit_file' || call.name === 'code_nav';
}
