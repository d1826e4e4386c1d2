import { z } from 'zod';
import { apiSchemas } from './api-schemas.js';

// POST /v1/sessions/{id}/land (docs/background.md): its request and replies, in the same registry as every other schema.

function named<T extends z.ZodType>(id: string, schema: T): T {
  apiSchemas.add(schema, { id });
  return schema;
}

export const landBodySchema = named(
  'Land',
  z.strictObject({
    checks: z.array(z.string().min(1).max(10_000)).max(100).optional().describe('Run these commands in the worktree (sh -c), and no configured ones; a non-zero exit lands nothing.'),
    noCheck: z.boolean().optional().describe('Run no checks.'),
    only: z.array(z.string().min(1)).max(10_000).optional().describe('Land only these files (paths in the repository), whole. Default: the whole change.'),
  }),
);
export type LandBody = z.infer<typeof landBodySchema>;

const landedFileSchema = z.object({ path: z.string(), action: z.enum(['wrote', 'removed']), merged: z.boolean().describe('Merged three ways with the uncommitted edits of the checkout.') });

export const landResultSchema = named(
  'LandResult',
  z.discriminatedUnion('outcome', [
    z.object({
      outcome: z.literal('landed'),
      files: z.array(landedFileSchema),
      partial: z.boolean().describe('Part of the change was left out (only): it stays on the branch.'),
      branch: z.string(),
      tip: z.string().describe('The commit of the branch that was landed.'),
      rewindSession: z.string().describe('The session that records the land: vibe-agent rewind in the checkout undoes it.'),
      text: z.string(),
    }),
    z.object({ outcome: z.literal('nothing'), text: z.string().describe('Why nothing was applied: the session changed nothing.') }),
    z.object({ outcome: z.literal('refused'), reason: z.string(), error: z.string().describe('The reason again, as every error reply carries it.') }),
    z.object({
      outcome: z.literal('check_failed'),
      check: z.string(),
      exitCode: z.number().int().nullable(),
      signal: z.string().nullable(),
      output: z.string().describe('The last 64 KiB of its output (stdout and stderr as they came).'),
      reason: z.string(),
      error: z.string(),
    }),
  ]),
);
export type LandResultBody = z.infer<typeof landResultSchema>;

/** A session the server hosts, landed into its checkout (src/background/land-session.ts behind it). */
export interface HostedLand {
  /** Undefined when the session is no background session (vibe-agent --bg) of this data folder. */
  land(body: LandBody): Promise<LandResultBody | undefined>;
  /** Its worktree, when it is a background session in one: what the session info shows. */
  worktree(): { name: string; branch: string; path: string; landed?: string } | undefined;
  /** While a land of it runs here: prompts are refused, so nothing writes in the worktree being landed. */
  landing(): boolean;
}
