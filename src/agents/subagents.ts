import type { AgentEvent } from '../contracts/events.js';
import type { ToolContext, ToolOutput } from '../contracts/tool.js';
import type { AgentContextHooks, AgentOptions } from '../core/agent-options.js';
import { Budget } from '../core/budget.js';
import { EventRelay } from '../core/event-relay.js';
import { DEFAULT_SYSTEM_PROMPT } from '../core/system-prompt.js';
import { priceOf } from '../providers/pricing.js';
import { ToolRegistry } from '../tools/registry.js';
import { BUILTIN_AGENTS, type AgentDefinition } from './agent-definition.js';
import type { AgentNode, AgentTree, ChildRunner, SubagentStopHandler } from './agent-tree.js';
import { childOutcome } from './child-outcome.js';
import { childTools } from './child-tools.js';
import { Semaphore } from './semaphore.js';
import { createTaskTool, type TaskArgs } from './task-tool.js';

export interface SubagentOptions {
  /** The agents `task` can start (default: the built-in general and explorer). */
  agents?: readonly AgentDefinition[];
  /** Levels of subagents below the top agent (default 1: children cannot start children). */
  maxDepth?: number;
  /** Agents running at once on each level of the tree (default 4). */
  concurrency?: number;
  /** Input plus output tokens the whole tree may use. */
  tokenBudget?: number;
  onStop?: SubagentStopHandler;
  /** How a child runs: the conversation core's `runChildConversation` (the one place an agent's run starts). */
  runChild: ChildRunner;
}

const SUBAGENT_NOTE =
  'You are a subagent started by another agent for one task. Nobody sees your messages but your final reply, ' +
  'which is returned to that agent: make it a complete, concise report of what you found or did.';

/**
 * Gives a run the `task` tool (registered in its registry) and one budget for the tree: the run's
 * maxCost and maxTurns, and `tokenBudget`, cover it and every subagent it starts, checked before
 * each request. Subagents run through `subagents.runChild` (the conversation core's); their events
 * come through this run's stream, each with its `agent` path.
 */
export function withSubagents(options: AgentOptions, subagents: SubagentOptions): AgentOptions {
  const tree: AgentTree = {
    base: options,
    agents: subagents.agents ?? BUILTIN_AGENTS,
    maxDepth: subagents.maxDepth ?? 1,
    slots: [],
    concurrency: subagents.concurrency ?? 4,
    runChild: subagents.runChild,
    ...(subagents.onStop ? { onStop: subagents.onStop } : {}),
  };
  const limits = { maxCost: options.maxCost, maxTurns: options.maxTurns, maxTokens: subagents.tokenBudget };
  const budget = options.budget ?? new Budget(Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)));
  return attach(options, tree, { path: budget.agent, depth: 0, budget, tools: options.tools ?? new ToolRegistry(), relay: new EventRelay(), started: 0 });
}

/** The task tool a registry holds, and the run it starts children for (the latest run given that registry). */
const bound = new WeakMap<ToolRegistry, { tree: AgentTree; node: AgentNode }>();

/** The run's options for a node of the tree: its budget, its relay, and a task tool of its own while the depth allows. */
function attach(options: AgentOptions, tree: AgentTree, node: AgentNode): AgentOptions {
  const binding = bound.get(node.tools);
  if (binding) Object.assign(binding, { tree, node });
  else if (node.depth < tree.maxDepth) {
    // A registry serves run after run (the interactive session): its one task tool follows the current run.
    const current = { tree, node };
    bound.set(node.tools, current);
    node.tools.register(createTaskTool(tree.agents, (definition, args, context) => runChild(current.tree, current.node, definition, args, context)));
  }
  return { ...options, tools: node.tools, budget: node.budget, relay: node.relay };
}

async function runChild(tree: AgentTree, parent: AgentNode, definition: AgentDefinition, args: TaskArgs, context: ToolContext): Promise<ToolOutput> {
  const path = `${parent.path}/task-${++parent.started}`;
  let release: () => void;
  try {
    release = await (tree.slots[parent.depth] ??= new Semaphore(tree.concurrency)).acquire(context.signal);
  } catch {
    return { output: `Subagent ${path} was cancelled before it started.`, isError: true };
  }
  const budget = parent.budget.share(path, definition);
  try {
    const { base } = tree;
    const model = definition.model ?? base.model;
    const price = priceOf(model) ?? (model === base.model ? base.price : undefined);
    if (budget.limitsCost && !price) return { output: `Subagent ${path} cannot run: no price is known for model "${model}" and the run has a cost limit.`, isError: true };
    const child: AgentOptions = {
      ...inherited(base),
      model,
      input: args.prompt,
      // Without a prompt of its own a child works as its parent does (project memory included).
      system: `${definition.prompt || base.system || DEFAULT_SYSTEM_PROMPT}\n\n${SUBAGENT_NOTE}`,
      maxTurns: definition.maxTurns ?? base.maxTurns ?? 25,
      signal: context.signal,
      workspace: context.workspace,
      ...(price ? { price } : {}),
    };
    const node: AgentNode = { path, depth: parent.depth + 1, budget, tools: new ToolRegistry(childTools(parent.tools.list(), definition), { outputs: parent.tools.outputs }), relay: new EventRelay(), started: 0 };
    const options = attach({ ...child, ...contextOf(base, node.tools) }, tree, node);
    const result = await tree.runChild(options, { path, agent: definition.name, emit: (event) => parent.relay.push(tagged(event, path)), ...(tree.onStop ? { onStop: tree.onStop } : {}) });
    return childOutcome(path, result);
  } finally {
    budget.release();
    release();
  }
}

/** What a child takes from the top-level run: the provider and the settings that are not per-agent. */
function inherited(base: AgentOptions): Omit<AgentOptions, 'model' | 'input'> {
  const { provider, temperature, maxTokens, repeatLimit, changingRepeatLimit, protocolErrorLimit, authorize, retry } = base;
  const optional = { temperature, maxTokens, repeatLimit, changingRepeatLimit, protocolErrorLimit, authorize, retry };
  return { provider, ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)) };
}

/**
 * A child's context policy, so it compacts near its window as the parent does: a policy of its own
 * (its own learned ratio, carried cost, cache clock, tool offer) when the run has `contextForAgent`;
 * otherwise the run's hooks as they are.
 */
function contextOf(base: AgentOptions, tools: ToolRegistry): AgentContextHooks {
  if (base.contextForAgent) return base.contextForAgent(tools);
  const { prepareMessages, onContextOverflow } = base;
  return { ...(prepareMessages ? { prepareMessages } : {}), ...(onContextOverflow ? { onContextOverflow } : {}) };
}

/** A grandchild's events already carry their own, longer path. */
function tagged(event: AgentEvent, path: string): AgentEvent {
  return event.agent ? event : { ...event, agent: path };
}
