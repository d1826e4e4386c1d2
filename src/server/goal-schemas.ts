import { z } from 'zod';
import { apiSchemas } from './api-schemas.js';

// The goal routes' requests and replies (docs/goals.md, docs/server.md): validated with these, and
// in GET /openapi.json through the same registry as every other schema.

function named<T extends z.ZodType>(id: string, schema: T): T {
  apiSchemas.add(schema, { id });
  return schema;
}

export const setGoalBodySchema = named(
  'SetGoal',
  z
    .strictObject({
      condition: z.string().trim().min(1).max(10_000).optional().describe('What must hold, in words the judge checks ("npm test passes"). Omit it with continue: true.'),
      prompt: z.string().min(1).max(1_000_000).optional().describe('The first turn\'s task, when it is more than the condition ("fix the date parser"); the condition is added to it.'),
      continue: z.literal(true).optional().describe("Continue the session's unfinished goal (cancelled, or its server stopped) with its caps and what it had spent."),
      maxCost: z.number().positive().optional().describe('US dollars (list prices), agent, subagents and judge together. Default: the server\'s goalMaxCost ($5).'),
      maxTokens: z.number().int().positive().optional().describe('Input plus output tokens. Default: goalMaxTokens (2,000,000).'),
      maxTurns: z.number().int().positive().max(1000).optional().describe('Working turns. Default: goalMaxTurns (20).'),
      maxMinutes: z.number().positive().optional().describe('Wall time in minutes. Default: goalMaxTimeMs (60 minutes).'),
    })
    .refine((body) => (body.condition === undefined) !== (body.continue === undefined), { message: 'give either a condition or continue: true' })
    .refine((body) => body.continue === undefined || [body.maxCost, body.maxTokens, body.maxTurns, body.maxMinutes, body.prompt].every((cap) => cap === undefined), { message: 'a continued goal keeps the caps it started with (and takes no prompt)' }),
);
export type SetGoalBody = z.infer<typeof setGoalBodySchema>;

const evidenceSchema = z.union([z.object({ check: z.string(), exit_code: z.number().int() }), z.object({ file: z.string(), line: z.number().int(), text: z.string() })]);

const verdictSchema = named(
  'GoalVerdict',
  z.object({
    seq: z.number().int().optional().describe('The goal_verdict event\'s number.'),
    turn: z.number().int(),
    judge: z.string(),
    status: z.enum(['met', 'not_met']).describe('What the judge said.'),
    accepted: z.boolean().describe('Whether it counts as met: "met" whose every cited item matches a check the judge ran.'),
    reason: z.string(),
    evidence: z.array(evidenceSchema),
    checks: z.array(z.object({ name: z.string(), exit_code: z.number().int() })).describe('The checks the judge ran, with their exit codes.'),
  }),
);

const outcomeSchema = z.enum(['met', 'cap', 'blocked', 'cleared', 'aborted']);

export const goalStateSchema = named(
  'Goal',
  z.object({
    condition: z.string(),
    status: z.enum(['running', 'unfinished', ...outcomeSchema.options]).describe('running: working or being judged here; unfinished: started, never ended, not running (POST continue: true resumes it); otherwise how it ended.'),
    judge: z.string(),
    checks: z.array(z.string()).describe('The commands the judge may run, besides read:PATH.'),
    stallTurns: z.number().int(),
    caps: z.object({ maxCost: z.number(), maxTokens: z.number(), maxTurns: z.number(), maxMs: z.number() }),
    spent: z.object({ turns: z.number(), tokens: z.number(), cost: z.number(), agentCost: z.number(), judgeCost: z.number(), elapsedMs: z.number() }),
    left: z.object({ turns: z.number(), tokens: z.number(), cost: z.number(), ms: z.number() }).describe('What is left of each cap.'),
    lastVerdict: verdictSchema.optional(),
    end: z.object({ seq: z.number().int().optional(), outcome: outcomeSchema, reason: z.string(), report: z.string() }).optional(),
    startSeq: z.number().int().optional().describe('The goal_start event\'s number.'),
  }),
);
export type GoalStateBody = z.infer<typeof goalStateSchema>;

/**
 * A hosted session's goal (docs/goals.md): what the goal routes (goal-routes.ts) ask of the adapter. Its events
 * (goal_start, goal_verdict, goal_end) are the session's numbered events like any other, so the
 * event stream carries them; these routes set, read and clear.
 */
export interface HostedGoal {
  /** Starts (or continues) the goal; throws GoalRefused when it cannot (one runs already, nothing to continue, no judge). */
  set(body: SetGoalBody): Promise<GoalStateBody>;
  state(): GoalStateBody | undefined;
  /** Ends it as cleared (stopping it if it runs); undefined when the session never had a goal. */
  clear(): Promise<GoalStateBody | undefined>;
}

/** A goal request the session cannot meet now: 409 with this message. */
export class GoalRefused extends Error {
  override name = 'GoalRefused';
}
