import type { Authorize } from '../../contracts/tool.js';
import type { ToolRegistry } from '../../tools/registry.js';

/** A line typed as `!command`: the command, or undefined for any other line (`!` alone is text). */
export function typedCommand(text: string): string | undefined {
  if (!text.startsWith('!')) return undefined;
  const command = text.slice(1).trim();
  return command === '' ? undefined : command;
}

export interface TypedRun {
  tools: ToolRegistry;
  /** The session's rules with the user's own answer already given: deny rules, plan mode and the sandbox still hold. */
  authorize: Authorize;
  workspace: string;
  signal: AbortSignal;
}

export type TypedResult = { ran: true; output: string; failed: boolean } | { ran: false; reason: string };

let count = 0;

/**
 * Runs a command the user typed after `!` as a call of the bash tool, so it meets the same
 * permission rules, sandbox, time limit, secret redaction and output cap (the whole output kept
 * for read_output) as the model's own calls.
 */
export async function runTypedCommand(command: string, run: TypedRun): Promise<TypedResult> {
  if (!run.tools.get('bash')) return { ran: false, reason: 'the bash tool is not enabled in this session (--tools), so `!` commands cannot run.' };
  const result = await run.tools.invoke({ id: `typed-${++count}`, name: 'bash', arguments: JSON.stringify({ command }) }, { workspace: run.workspace, signal: run.signal, authorize: run.authorize });
  if (result.status === 'denied' || result.durationMs === undefined) return { ran: false, reason: result.content };
  return { ran: true, output: result.content.replace(/\n+$/, ''), failed: result.isError };
}

/**
 * What the model is told of a command the user ran: it goes before the user's next prompt, in
 * the same message, so the conversation alternates as every provider wants and is not sent by itself.
 */
export function typedCommandBlock(command: string, output: string): string {
  return `<user-shell command=${JSON.stringify(command)}>\n${output}\n</user-shell>`;
}
