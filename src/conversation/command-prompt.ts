import type { CustomCommand } from '../commands/discover-commands.js';
import { expandCommand, findInvocation } from '../commands/expand-command.js';
import { shellThroughTool } from '../commands/shell-through-tool.js';
import type { Authorize } from '../contracts/tool.js';
import type { ExpandedPrompt } from '../mcp/mcp-servers.js';
import type { ToolScope } from '../skills/tool-scope.js';
import type { ToolRegistry } from '../tools/registry.js';

export interface CommandRun {
  commands: readonly CustomCommand[];
  tools: ToolRegistry;
  scope: ToolScope;
  authorize: Authorize;
  workspace: string;
  signal: AbortSignal;
  /** `/mcp__<server>__<prompt> args` → the MCP server's prompt (undefined: not one). */
  mcpPrompt?: (text: string) => Promise<ExpandedPrompt | undefined>;
}

export type CommandPrompt = { ok: true; prompt: string; model: string | undefined; command: CustomCommand | undefined } | { ok: false; reason: string };

/**
 * The prompt a run starts with, shared by one-shot and interactive mode: `/name args` naming a
 * custom command becomes its expanded prompt (model and allowed-tools applied to the run), and
 * `/mcp__server__prompt args` the MCP server's prompt; any other text is sent as it is. Starts the run's tool scope either way.
 */
export async function startRunPrompt(text: string, run: CommandRun): Promise<CommandPrompt> {
  const fromMcp = await run.mcpPrompt?.(text);
  if (fromMcp) {
    run.scope.beginRun();
    return fromMcp.ok ? { ok: true, prompt: fromMcp.prompt, model: undefined, command: undefined } : fromMcp;
  }
  const invocation = findInvocation(text, run.commands);
  if (!invocation) {
    run.scope.beginRun();
    return { ok: true, prompt: text, model: undefined, command: undefined };
  }
  const { command, args } = invocation;
  // Expanded before the scope narrows: the shell forms go through bash, which the command may not allow.
  run.scope.beginRun();
  const expanded = await expandCommand(command, args, shellThroughTool(run.tools, run));
  if (!expanded.ok) return expanded;
  run.scope.beginRun(command.allowedTools ? { allowedTools: command.allowedTools, by: `the command /${command.name}` } : undefined);
  return { ok: true, prompt: expanded.prompt, model: command.model, command };
}
