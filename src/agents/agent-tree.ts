import type { AgentEvent, StopReason } from '../contracts/events.js';
import type { Budget } from '../core/budget.js';
import type { AgentOptions, RunResult } from '../core/agent-options.js';
import type { EventRelay } from '../core/event-relay.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { AgentDefinition } from './agent-definition.js';
import type { Semaphore } from './semaphore.js';

/**
 * Asked when a subagent's run ends (Claude Code's SubagentStop hooks): a reason sends it back to
 * work with that reason as its next message; `round` counts such continuations so far.
 */
export type SubagentStopHandler = (stop: { path: string; agent: string; reason: StopReason; round: number }) => Promise<string | undefined>;

/** One child of the tree as its runner sees it. */
export interface ChildRun {
  /** "main/task-1". */
  path: string;
  /** The agent definition's name ("general", "explorer", a file's). */
  agent: string;
  /** Where each of the child's events goes (its parent's stream, tagged with the child's path). */
  emit(event: AgentEvent): void;
  onStop?: SubagentStopHandler;
}

/**
 * Runs one child to its end, SubagentStop continuations included. The conversation core gives the one
 * runner (`runChildConversation`): a child is a child conversation, built the way its parent's runs are.
 */
export type ChildRunner = (options: AgentOptions, child: ChildRun) => Promise<RunResult>;

/** What every agent of one tree shares. */
export interface AgentTree {
  /** The top-level run's options: provider, model, permissions and the rest children inherit. */
  base: AgentOptions;
  agents: readonly AgentDefinition[];
  onStop?: SubagentStopHandler;
  runChild: ChildRunner;
  /** How many levels below the top agent may exist (1: children, no grandchildren). */
  maxDepth: number;
  /**
   * Agents running at once on each level below the top (index 0: children, 1: grandchildren …).
   * Per level, so a parent waiting on its children holds a slot of its own level, never one they
   * need: no tree can deadlock, whatever its depth and fan-out. Made as a level is first reached.
   */
  slots: Semaphore[];
  /** The size of each level's slots. */
  concurrency: number;
}

/** One agent of the tree, as its `task` tool sees it. */
export interface AgentNode {
  /** "main", "main/task-2". */
  path: string;
  depth: number;
  budget: Budget;
  /** The agent's own tools: what its children's tools are chosen from. */
  tools: ToolRegistry;
  /** Where its children's events go (its loop passes them on). */
  relay: EventRelay;
  /** Children started so far, to number the next one. */
  started: number;
}
