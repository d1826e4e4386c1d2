import type { AgentEvent } from '../contracts/events.js';
import type { Message, ToolCall, ToolMessage } from '../contracts/messages.js';
import type { FinishReason } from '../contracts/provider.js';
import { parseArguments, type ToolRegistry } from '../tools/registry.js';
import type { Authorize, ToolResult } from '../contracts/tool.js';
import type { EventRelay } from './event-relay.js';
import { bridgeCalls, offerEvents } from './bridged-calls.js';
import type { RunTotals } from './run-totals.js';

export interface ToolRunContext {
  registry: ToolRegistry;
  turn: number;
  finishReason: FinishReason;
  signal: AbortSignal;
  workspace: string;
  authorize?: Authorize;
  /** Subagents' events, yielded as they arrive while the calls run. */
  relay?: EventRelay;
  /** The conversation so far (ending with the reply that made these calls), for the permission check. */
  history?: readonly Message[];
  /** Charged with what a permission reviewer spent. */
  totals?: RunTotals;
}

/**
 * Runs one reply's calls. Consecutive read-only (or concurrent: subagents) calls run together;
 * anything else that writes or executes runs alone. Results are returned in the order of the
 * calls, whatever order they finish in; relayed subagent events are passed on as they come.
 */
export async function* runToolCalls(calls: ToolCall[], context: ToolRunContext): AsyncGenerator<AgentEvent, ToolMessage[]> {
  const results: ToolResult[] = new Array(calls.length);
  // call_tool calls become the calls of the tools they name, all before any runs: a tool that a
  // search in this same reply loads is refused (the model has not seen its schema).
  const bridged = await bridgeCalls(calls, context.registry);
  const ran = bridged.map((entry, index) => entry.call ?? calls[index]!);
  for (const batch of batches(ran, context.registry)) {
    for (const index of batch) yield { type: 'tool_call_start', turn: context.turn, call: ran[index]!, ...(ran[index] !== calls[index] ? { via: calls[index]!.name } : {}) };
    const pending = new Map<number, Promise<{ index: number; result: ToolResult }>>();
    for (const index of batch) {
      const entry = bridged[index]!;
      const result = entry.error !== undefined ? Promise.resolve<ToolResult>({ content: entry.error, isError: true, status: 'error' }) : invokeOne(ran[index]!, context);
      pending.set(index, result.then((result) => ({ index, result })));
    }
    while (pending.size > 0) {
      const settled = await Promise.race([...pending.values(), ...(context.relay ? [context.relay.arrival()] : [])]);
      if (context.relay) yield* context.relay.drain();
      if (!settled) continue;
      const { index, result } = settled;
      pending.delete(index);
      results[index] = result;
      const call = ran[index]!;
      if (result.review) {
        const { review } = result;
        if (review.usage) context.totals?.addSide(review.usage, review.cost);
        yield { type: 'permission_review', turn: context.turn, id: call.id, name: call.name, ...review };
      }
      yield {
        type: 'tool_call_end',
        turn: context.turn,
        id: call.id,
        name: call.name,
        status: result.status,
        isError: result.isError,
        output: result.content,
        // The tool's own running time; a call that never ran (denied, invalid) took none.
        durationMs: result.durationMs ?? 0,
        ...(result.images?.length ? { images: result.images } : {}),
      };
      yield* offerEvents(context.registry, context.turn);
    }
  }
  return calls.map((call, index) => ({
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content: results[index]!.content,
    isError: results[index]!.isError,
    ...(results[index]!.images?.length ? { images: results[index]!.images } : {}),
    ...(results[index]!.toolReferences?.length ? { toolReferences: results[index]!.toolReferences } : {}),
  }));
}

async function invokeOne(call: ToolCall, context: ToolRunContext): Promise<ToolResult> {
  // A reply cut off by the output limit may end inside a call's arguments. Such a call is
  // never repaired and run: a half-written command is not the command the model meant.
  if (context.finishReason === 'length' && !(await completeArguments(call, context.registry))) {
    return {
      content:
        `This call to ${call.name} was cut off before its arguments were complete (the reply hit the output token limit), ` +
        'so it was not run. Send it again in full; if it is long, split the work into smaller calls.',
      isError: true,
      status: 'error',
    };
  }
  return context.registry.invoke(call, { signal: context.signal, workspace: context.workspace, authorize: context.authorize, ...(context.history ? { history: context.history } : {}) });
}

/**
 * Whether a call's arguments look whole. Providers that send calls whole (Gemini) deliver a
 * cut call with missing fields rather than broken JSON, so the schema is checked as well.
 */
async function completeArguments(call: ToolCall, registry: ToolRegistry): Promise<boolean> {
  if (call.arguments.trim() === '') return false;
  const parsed = parseArguments(call.arguments);
  if (!parsed.ok) return false;
  // A tool whose code cannot load is left to invoke, which reports that.
  const tool = await registry.loaded(call.name).catch(() => undefined);
  return !tool || (await tool.checkArguments(parsed.value)).ok;
}

/** Groups call indexes: a run of read-only or concurrent calls forms one batch, every other call its own. */
function batches(calls: ToolCall[], registry: ToolRegistry): number[][] {
  const groups: number[][] = [];
  let current: number[] = [];
  calls.forEach((call, index) => {
    const tool = registry.get(call.name);
    if (tool?.readOnly || tool?.concurrent) {
      current.push(index);
      return;
    }
    if (current.length) groups.push(current);
    current = [];
    groups.push([index]);
  });
  if (current.length) groups.push(current);
  return groups;
}
