import { z } from 'zod';
import type { Tool, ToolContext, ToolOutput } from '../contracts/tool.js';
import { defineTool } from '../tools/define-tool.js';
import type { AgentDefinition } from './agent-definition.js';

export interface TaskArgs {
  description: string;
  prompt: string;
  agent?: string | undefined;
}

/** A child may run for as long as its budget lets it: the registry's per-call time limit is not for it. */
const NO_TIME_LIMIT = 2 ** 31 - 1;

/**
 * The `task` tool: starts a subagent on a self-contained task and returns its final answer (or its
 * hand-off). Concurrent, not read-only: several tasks of one reply run together, and every call a
 * child makes goes through the same permission policy, so the task itself asks nothing.
 */
export function createTaskTool(agents: readonly AgentDefinition[], runTask: (definition: AgentDefinition, args: TaskArgs, context: ToolContext) => Promise<ToolOutput>): Tool {
  const names = agents.map((agent) => agent.name);
  return defineTool({
    name: 'task',
    description: [
      'Start a subagent on a self-contained task; its final answer comes back as this call\'s result.',
      'It starts with a fresh history: put every fact it needs and what to report into the prompt.',
      'Several task calls in one reply run in parallel. Agents:',
      ...agents.map((agent) => `- ${agent.name}: ${agent.description}`),
    ].join('\n'),
    parameters: z.object({
      description: z.string().min(1).describe('A short label for the task (3 to 5 words), shown to the user.'),
      prompt: z.string().min(1).describe('The whole task for the subagent.'),
      agent: z.string().optional().describe(`Which agent: ${names.join(', ')} (default general).`),
    }),
    concurrent: true,
    needsApproval: false,
    // The task itself touches nothing: its child's calls are each checked by the policy.
    permission: { category: 'read' },
    timeoutMs: NO_TIME_LIMIT,
    async execute(args, context) {
      const wanted = args.agent ?? 'general';
      const definition = agents.find((agent) => agent.name === wanted);
      if (!definition) return { output: `Unknown agent "${wanted}". Available: ${names.join(', ')}.`, isError: true };
      return runTask(definition, args, context);
    },
  });
}
