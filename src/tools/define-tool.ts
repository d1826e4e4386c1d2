import { z } from 'zod';
import type { ToolSchema } from '../providers/provider.js';

export interface ToolContext {
  /** Aborted when the run is aborted or the call times out; tools must stop promptly. */
  signal: AbortSignal;
  /** The workspace root the agent works in. */
  workspace: string;
}

/** What `execute` may return: plain text, or text flagged as an error the model should see. */
export type ToolOutput = string | { output: string; isError?: boolean };

export interface ToolDefinition<Schema extends z.ZodType> {
  name: string;
  /** Written for the model: what it does, when to use it, what comes back. */
  description: string;
  parameters: Schema;
  /** Reads only: may run concurrently with other read-only calls. Default false. */
  readOnly?: boolean;
  /** Writes or executes: the permission policy is asked first. Default: !readOnly. */
  needsApproval?: boolean;
  /** Per-call time limit; the registry default applies when absent. */
  timeoutMs?: number;
  execute(args: z.infer<Schema>, context: ToolContext): Promise<ToolOutput>;
}

export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly parameters: z.ZodType;
  /** Derived once, at definition time. */
  readonly schema: ToolSchema;
  readonly readOnly: boolean;
  readonly needsApproval: boolean;
  readonly timeoutMs: number | undefined;
  execute(args: unknown, context: ToolContext): Promise<ToolOutput>;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function defineTool<Schema extends z.ZodType>(definition: ToolDefinition<Schema>): Tool {
  if (!TOOL_NAME.test(definition.name)) {
    throw new Error(`Tool name "${definition.name}" must match ${TOOL_NAME} (the pattern every provider accepts).`);
  }
  const readOnly = definition.readOnly ?? false;
  return {
    name: definition.name,
    description: definition.description,
    parameters: definition.parameters,
    schema: { name: definition.name, description: definition.description, parameters: toJsonSchema(definition.parameters) },
    readOnly,
    needsApproval: definition.needsApproval ?? !readOnly,
    timeoutMs: definition.timeoutMs,
    execute: (args, context) => definition.execute(args as z.infer<Schema>, context),
  };
}

function toJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
