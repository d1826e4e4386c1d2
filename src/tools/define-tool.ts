import type { z } from 'zod';
import type { ToolSchema } from '../contracts/provider.js';
import type { Tool, ToolContext, ToolOutput, ToolPermission, ToolPreview } from '../contracts/tool.js';
import { checkWithZod } from './zod-check.js';
import { loadedZod, loadZod, type Zod } from './zod-loader.js';

export interface ToolDefinition<Schema extends z.ZodType> {
  name: string;
  /** Written for the model: what it does, when to use it, what comes back. */
  description: string;
  /**
   * The arguments' zod schema; or a function building it from zod, called at its first need, so
   * that a module that imports only zod's types (`import type { z } from 'zod'`) loads no zod.
   */
  parameters: Schema | ((zod: Zod) => Schema);
  /** Reads only: may run concurrently with other read-only calls. Default false. */
  readOnly?: boolean;
  /** Runs alongside read-only and other concurrent calls without being read-only (a subagent). Default false. */
  concurrent?: boolean;
  /** Writes, executes or sends data out: the permission policy is asked first. Default: !readOnly. */
  needsApproval?: boolean;
  /**
   * Category, rule subject and rule aliases. Default: category read for a tool that needs no
   * approval, execute otherwise (asked about in every mode but yolo), and no subject.
   */
  permission?: ToolPermission<z.infer<Schema>>;
  /** Per-call time limit; the registry default applies when absent. */
  timeoutMs?: number;
  execute(args: z.infer<Schema>, context: ToolContext): Promise<ToolOutput>;
  /** Shown before approval; without it the summary is the arguments as JSON. */
  preview?(args: z.infer<Schema>, context: ToolContext): Promise<ToolPreview>;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function defineTool<Schema extends z.ZodType>(definition: ToolDefinition<Schema>): Tool {
  if (!TOOL_NAME.test(definition.name)) {
    throw new Error(`Tool name "${definition.name}" must match ${TOOL_NAME} (the pattern every provider accepts).`);
  }
  const readOnly = definition.readOnly ?? false;
  const needsApproval = definition.needsApproval ?? !readOnly;
  const { parameters } = definition;
  let built: Schema | undefined = typeof parameters === 'function' ? undefined : parameters;
  const build = (zod: Zod): Schema => (built ??= (parameters as (zod: Zod) => Schema)(zod));
  const zodSchema = (): Schema => {
    if (built) return built;
    const zod = loadedZod();
    if (!zod) throw new Error(`The ${definition.name} tool's schema is built with zod, which is not loaded yet: await loadZod() first (the library's entry loads it).`);
    return build(zod);
  };
  let schema: ToolSchema | undefined;
  return {
    name: definition.name,
    description: definition.description,
    checkArguments: (args) => (built || loadedZod() ? checkWithZod(zodSchema(), args) : loadZod().then((zod) => checkWithZod(build(zod), args))),
    // Derived at the first request that offers the tool: the CLI defines tools it may never send (start-up cost).
    get schema(): ToolSchema {
      schema ??= { name: definition.name, description: definition.description, parameters: toJsonSchema(zodSchema()) };
      return schema;
    },
    readOnly,
    ...(definition.concurrent ? { concurrent: true } : {}),
    needsApproval,
    // The registry hands `subject` only arguments that passed this tool's schema.
    permission: (definition.permission as ToolPermission | undefined) ?? { category: needsApproval ? 'execute' : 'read' },
    timeoutMs: definition.timeoutMs,
    execute: (args, context) => definition.execute(args as z.infer<Schema>, context),
    preview: (args, context) =>
      definition.preview ? definition.preview(args as z.infer<Schema>, context) : Promise.resolve({ summary: `${definition.name} ${JSON.stringify(args)}` }),
  };
}

function toJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = schema.toJSONSchema({ target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  // zod's .int() bounds every integer by ±2^53−1: tokens in every request that tell the model nothing.
  return JSON.parse(JSON.stringify(json, (key, value) => ((key === 'maximum' && value === Number.MAX_SAFE_INTEGER) || (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) ? undefined : value)));
}
