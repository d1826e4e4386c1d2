import { z } from 'zod';
import { checkWithZod } from '../zod-check.js';
import type { ToolCall } from '../../contracts/messages.js';
import type { Tool } from '../../contracts/tool.js';
import { parseArguments } from '../registry.js';
import { CALL_DESCRIPTION, CALL_PARAMETERS, CALL_TOOL } from './tool-offer.js';

/**
 * The generic call tool of the bridge. Its calls never run as themselves: the loop turns each into
 * the call of the tool it names (resolveBridgedCall), so permission rules, hooks and approvals see
 * that tool. Reached directly (a registry invoked outside the loop), it says so.
 */
export function makeCallTool(): Tool {
  return {
    name: CALL_TOOL,
    description: CALL_DESCRIPTION,
    checkArguments: (args) => checkWithZod(z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) }), args),
    schema: { name: CALL_TOOL, description: CALL_DESCRIPTION, parameters: CALL_PARAMETERS },
    readOnly: false,
    needsApproval: false,
    permission: { category: 'read' },
    timeoutMs: undefined,
    execute: async () => ({ output: `${CALL_TOOL} runs only inside the agent loop, which calls the named tool in its place.`, isError: true }),
    preview: async (args) => ({ summary: `${CALL_TOOL} ${JSON.stringify(args)}` }),
  };
}

/** What the bridge needs to know of the tool search. */
export interface BridgeState {
  deferredTool(name: string): Tool | undefined;
  /** A tool offered directly (a call_tool naming one is passed on as its direct call). */
  offeredTool(name: string): Tool | undefined;
}

export type BridgedCall = { call: ToolCall } | { error: string };

const validators = new WeakMap<Tool, z.ZodType | null>();

/** The loaded tool's JSON Schema as a validator; null when zod cannot read it (the server validates then). */
function validatorOf(tool: Tool): z.ZodType | null {
  if (!validators.has(tool)) {
    let validator: z.ZodType | null;
    try {
      validator = z.fromJSONSchema(tool.schema.parameters as Parameters<typeof z.fromJSONSchema>[0]);
    } catch {
      validator = null;
    }
    validators.set(tool, validator);
  }
  return validators.get(tool)!;
}

/**
 * A call_tool call as the call of the tool it names, with the same id; or why it cannot be made:
 * not JSON, no such tool, not loaded by an earlier reply (`loadedBefore`), or arguments that do
 * not match the schema tool_search returned.
 */
export function resolveBridgedCall(call: ToolCall, state: BridgeState, loadedBefore: ReadonlySet<string>): BridgedCall {
  const parsed = parseArguments(call.arguments);
  if (!parsed.ok) return { error: `Arguments for ${CALL_TOOL} are not valid JSON (${parsed.error}). Send {"name": "<tool>", "arguments": {...}}.` };
  const { name, arguments: args } = parsed.value as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string' || !name) return { error: `${CALL_TOOL} needs "name", the tool to call, and "arguments", an object.` };
  const given = args === undefined ? {} : args;
  if (given === null || typeof given !== 'object' || Array.isArray(given)) return { error: `"arguments" of ${CALL_TOOL} must be a JSON object (the arguments of ${name}).` };
  if (state.offeredTool(name)) return { call: { id: call.id, name, arguments: JSON.stringify(given) } };
  const tool = state.deferredTool(name);
  if (!tool) return { error: `There is no tool named "${name}". Search with tool_search to find the tool's name.` };
  if (!loadedBefore.has(name)) {
    return {
      error: `${name} is not loaded: its schema must be seen before it is called. Call tool_search with "select:${name}", then call it with ${CALL_TOOL} in your next reply (a search and a call in the same reply are refused).`,
    };
  }
  const checked = validatorOf(tool)?.safeParse(given);
  if (checked && !checked.success) {
    const issues = checked.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`).join('; ');
    return { error: `Invalid arguments for ${name}: ${issues}. Expected schema: ${JSON.stringify(tool.schema.parameters)}` };
  }
  return { call: { id: call.id, name, arguments: JSON.stringify(given) } };
}
