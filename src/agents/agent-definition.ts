import type { BudgetLimits } from '../core/budget.js';

/** A kind of subagent the `task` tool can start: from a built-in, or a Markdown file with front matter. */
export interface AgentDefinition extends BudgetLimits {
  name: string;
  /** For the model choosing an agent: what it is good at. */
  description: string;
  /** The system prompt (the Markdown body); the default prompt when empty. */
  prompt: string;
  /** Tool names it may use (Claude Code names such as Read or Bash are understood); all of the parent's when absent. */
  tools?: string[];
  /** Only tools that never write or execute (the explorer). */
  readOnly?: boolean;
  /** A different model; the parent's when absent. */
  model?: string;
  /** Where it was defined: "built-in" or the file's path. */
  source: string;
}

export const GENERAL_AGENT: AgentDefinition = {
  name: 'general',
  description: 'A general-purpose agent with the same tools as you: for a self-contained piece of work (research, a change, a check).',
  prompt: '',
  source: 'built-in',
};

export const EXPLORER_AGENT: AgentDefinition = {
  name: 'explorer',
  description: 'A read-only agent for finding things out: searches and reads files, never edits or runs commands. Use it to explore code in parallel.',
  prompt: '',
  readOnly: true,
  source: 'built-in',
};

export const BUILTIN_AGENTS: readonly AgentDefinition[] = [GENERAL_AGENT, EXPLORER_AGENT];
