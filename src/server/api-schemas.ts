import { z } from 'zod';

// The one description of the server's requests and replies: the routes validate with these, and
// GET /openapi.json (and through it the typed client) is generated from them.

/** The named schemas: each becomes #/components/schemas/NAME in the OpenAPI document. */
export const apiSchemas = z.registry<{ id: string }>();
function named<T extends z.ZodType>(id: string, schema: T): T {
  apiSchemas.add(schema, { id });
  return schema;
}

export const PERMISSION_MODES = ['ask', 'auto-edit', 'auto', 'plan', 'yolo'] as const;
export type PermissionModeBody = (typeof PERMISSION_MODES)[number];

export const createSessionBodySchema = named(
  'CreateSession',
  z.strictObject({
    workspace: z.string().min(1).describe('The folder the session works in (an absolute path on the server).'),
    model: z.string().min(1).optional(),
    provider: z.string().min(1).optional(),
    permissionMode: z.enum(PERMISSION_MODES).optional().describe('Default: ask. In ask mode a call that needs approval waits for a client to answer.'),
    resume: z.string().min(1).optional().describe('A stored session id of this workspace to continue.'),
  }),
);
export type CreateSessionBody = z.infer<typeof createSessionBodySchema>;

export const promptModeSchema = z.enum(['queue', 'steer']);
export type PromptMode = z.infer<typeof promptModeSchema>;

export const planScopeSchema = named('PlanScope', z.strictObject({ files: z.array(z.string()), commands: z.array(z.string()) }));
export type PlanScopeBody = z.infer<typeof planScopeSchema>;

export const promptBodySchema = named(
  'Prompt',
  z.strictObject({
    text: z.string().min(1).max(1_000_000),
    mode: promptModeSchema.default('queue').describe('queue: run after what is running; steer: add to the running turn (it reaches the model with the next request).'),
    permissionMode: z
      .enum(PERMISSION_MODES)
      .optional()
      .describe('The session\'s permission mode from this prompt on (a terminal attached in plan mode sends plan: the prompt runs read-only and ends with a plan). Taken when the prompt is accepted, as a mode switch in a terminal is. Default: the mode the session is in.'),
    planScope: planScopeSchema.optional().describe('With permissionMode: the approved plan\'s lists; a call outside them asks again, whatever the mode.'),
  }),
);

export const decisionSchema = z.enum(['allow', 'deny', 'always']);
export type Decision = z.infer<typeof decisionSchema>;
export const approvalBodySchema = named('ApprovalAnswer', z.strictObject({ decision: decisionSchema }));

export const pendingApprovalSchema = named(
  'PendingApproval',
  z.object({ requestId: z.string(), tool: z.string(), summary: z.string(), detail: z.string().optional().describe('More to show: a unified diff for edits, the full command for shell.'), always: z.string().optional() }),
);

export const sessionInfoSchema = named(
  'Session',
  z.object({
    id: z.string(),
    workspace: z.string(),
    status: z.enum(['idle', 'running', 'closed']),
    lastSeq: z.number().int().min(0).describe('The sequence number of the newest event.'),
    queued: z.number().int().min(0).describe('Prompts waiting behind the running one.'),
    pendingApprovals: z.array(pendingApprovalSchema),
    permissionMode: z.enum(PERMISSION_MODES).optional().describe('The permission mode the session\'s next prompt runs in (an attached terminal starts in it).'),
    worktree: z
      .object({ name: z.string(), branch: z.string(), path: z.string(), landed: z.string().optional().describe('The commit of its branch last landed whole.') })
      .optional()
      .describe('Set for a background session in a git worktree (vibe-agent --bg -w): POST …/land lands it into its checkout.'),
  }),
);
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/**
 * One event of a session, as `vibe-agent --json` prints it and the session file holds it: the
 * AgentEvent (see docs/loop.md) or the conversation's own notice (`question`, `question_answered`,
 * `interrupted`, `mode_changed`, …) with `seq`, its number in the session. Numbers count on across resumes and a
 * restart of the server; deltas are numbered but not stored, so a replay from the file skips theirs.
 */
export const apiEventSchema = named(
  'Event',
  z.looseObject({
    seq: z.number().int().min(1),
    type: z.string(),
    agent: z.string().optional().describe('Set on a subagent\'s events: its path, e.g. "main/task-2".'),
  }),
);
export type ApiEvent = z.infer<typeof apiEventSchema>;

export const eventPageSchema = named(
  'EventPage',
  z.object({
    events: z.array(apiEventSchema),
    next: z.number().int().min(0).describe('Pass as ?after= for the following page.'),
    more: z.boolean().describe('More events are stored after this page.'),
  }),
);

export const errorSchema = named('Error', z.object({ error: z.string() }));
export const healthSchema = named('Health', z.object({ ok: z.literal(true), version: z.string() }));
export const sessionListSchema = named('SessionList', z.object({ sessions: z.array(sessionInfoSchema) }));
export const acceptedSchema = named('Accepted', z.object({ ok: z.literal(true), lastSeq: z.number().int().min(0) }));
export const interruptedSchema = named('Interrupted', z.object({ interrupted: z.boolean() }));
export const modeBodySchema = named(
  'ModeChange',
  z.strictObject({
    permissionMode: z.enum(PERMISSION_MODES).describe('The session\'s permission mode from now on, for its running turn too (as Shift+Tab in a terminal).'),
    planScope: planScopeSchema.optional().describe('An approved plan\'s lists; a call outside them asks again, whatever the mode. Without it, any earlier plan\'s bounds are dropped.'),
  }),
);
export type ModeBody = z.infer<typeof modeBodySchema>;
export const modeSchema = named('Mode', z.object({ permissionMode: z.enum(PERMISSION_MODES) }));
