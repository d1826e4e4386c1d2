import { z } from 'zod';
import { apiSchemas, pendingApprovalSchema } from './api-schemas.js';
import { goalStateSchema } from './goal-schemas.js';

// GET /v1/agents (docs/background.md): the background sessions as `vibe-agent agents` and the live page show them.

function named<T extends z.ZodType>(id: string, schema: T): T {
  apiSchemas.add(schema, { id });
  return schema;
}

export const sessionReportSchema = named(
  'SessionReport',
  z.object({
    outcome: z.string().describe('How its last run ended (the stop reason).'),
    files: z.array(z.object({ path: z.string(), added: z.number().int().nullable(), removed: z.number().int().nullable() })).describe('Files changed against its base, committed or not; null counts for binary files.'),
    commands: z.array(z.object({ command: z.string(), exit: z.number().int().nullable(), note: z.string().optional() })).describe('The shell commands it ran: an exit code, or why it did not run.'),
    notDone: z.array(z.string()).describe('What it did not do (nothing verified, denied calls).'),
    cost: z.number().optional(),
    next: z.array(z.string()).describe('The commands that land or discard it.'),
  }),
);

export const agentSchema = named(
  'Agent',
  z.object({
    id: z.string(),
    name: z.string(),
    state: z.enum(['working', 'needs you', 'done', 'failed', 'stopped']),
    workspace: z.string(),
    repo: z.string().describe('The checkout `--bg` was run in (where a land applies).'),
    worktree: z.string().optional(),
    branch: z.string().optional(),
    base: z.string().optional(),
    included: z.array(z.string()).optional(),
    cost: z.number().optional().describe('Dollars so far; absent when none is known.'),
    lastEvent: z.object({ seq: z.number().int(), type: z.string(), summary: z.string().optional() }).optional(),
    pendingApprovals: z.array(pendingApprovalSchema),
    landed: z.string().optional(),
    problem: z.string().optional().describe('Why the server could not open it (it shows as stopped).'),
    report: sessionReportSchema.optional().describe('Once its run has ended: what it changed, ran and cost, and how to land it.'),
    goal: goalStateSchema.optional(),
  }),
);
export type AgentBody = z.infer<typeof agentSchema>;

export const agentListSchema = named('AgentList', z.object({ agents: z.array(agentSchema) }));
