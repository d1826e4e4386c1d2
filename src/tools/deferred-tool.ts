import { canonicalJson } from '../contracts/canonical-json.js';
import { lazyModule } from '../contracts/lazy-module.js';
import type { Tool, ToolCategory, ToolPermission } from '../contracts/tool.js';
import type { CompiledValidator } from './compiled-validator.js';

/**
 * What is known of a tool without loading its code: enough to offer it to the model and to
 * decide how its calls are batched and permitted. The CLI's built-in tools have theirs written at
 * build time (src/tools/tool-specs.ts, from the tools themselves; test/tool-specs.test.ts keeps it true).
 */
export interface ToolSpec {
  name: string;
  description: string;
  /** The JSON Schema of the arguments, as `defineTool` derives it. */
  parameters: Record<string, unknown>;
  readOnly: boolean;
  concurrent?: boolean;
  needsApproval: boolean;
  timeoutMs?: number;
  category: ToolCategory;
  aliases?: readonly string[];
  /** Whether the tool's permission names a subject (a path, a command) for rules to match. */
  subject: boolean;
}

/** The spec of a loaded tool (how the build writes src/tools/tool-specs.ts). */
export function specOf(tool: Tool): ToolSpec {
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.schema.parameters,
    readOnly: tool.readOnly,
    ...(tool.concurrent ? { concurrent: true } : {}),
    needsApproval: tool.needsApproval,
    ...(tool.timeoutMs !== undefined ? { timeoutMs: tool.timeoutMs } : {}),
    category: tool.permission.category,
    ...(tool.permission.aliases?.length ? { aliases: [...tool.permission.aliases] } : {}),
    subject: tool.permission.subject !== undefined,
  };
}

export interface DeferredToolOptions {
  /**
   * The spec was written from this very tool at build time (src/tools/tool-specs.ts) and
   * test/tool-specs.test.ts holds the two equal: the loaded tool is not compared with it again,
   * which would derive its JSON Schema through zod on the first call's critical path (~10–20 ms).
   */
  specFromBuild?: boolean;
  /**
   * The check of the spec's schema compiled at build time (src/tools/validators/), loaded
   * with the tool: a call it passes needs no zod; one it fails goes to the tool's own schema, whose
   * message the model gets. test/tool-validators.test.ts holds the two in agreement.
   */
  validator?: () => Promise<CompiledValidator | undefined>;
}

/**
 * A tool offered from its spec whose code (and zod, which its schema is written in) loads at
 * first use: `load` starts it, the registry awaits it before validating a call. A load that fails
 * is tried again at the next call; so is one whose tool no longer matches the spec.
 * With a compiled `validator`, a valid call is checked without zod.
 */
export function deferredTool(spec: ToolSpec, load: () => Promise<Tool>, options: DeferredToolOptions = {}): Tool {
  const loadTool = async () => (options.specFromBuild ? load() : agreeing(spec, await load()));
  const implementation = lazyModule(async () => {
    const [tool, validate] = await Promise.all([loadTool(), options.validator?.()]);
    return { tool, validate };
  });
  const loadImplementation = async () => (await implementation.load()).tool;
  const real = (): Tool => {
    const loaded = implementation.loaded();
    if (!loaded) throw new Error(`The ${spec.name} tool is not loaded yet: await its load() first.`);
    return loaded.tool;
  };
  const permission: ToolPermission = {
    category: spec.category,
    ...(spec.aliases ? { aliases: spec.aliases } : {}),
    // Rules see a subject only for arguments that passed the schema, so the tool is loaded by then.
    ...(spec.subject ? { subject: (args: unknown) => real().permission.subject!(args) } : {}),
  };
  const tool: Tool = {
    name: spec.name,
    description: spec.description,
    schema: { name: spec.name, description: spec.description, parameters: spec.parameters },
    checkArguments: (args) => {
      const tool = real();
      const validate = implementation.loaded()!.validate;
      if (validate) {
        // The compiled check drops unknown keys and fills defaults in place: the call's own value stays as sent.
        const data = structuredClone(args);
        if (validate(data)) return { ok: true, data };
      }
      return tool.checkArguments(args);
    },
    readOnly: spec.readOnly,
    ...(spec.concurrent ? { concurrent: true } : {}),
    needsApproval: spec.needsApproval,
    permission,
    timeoutMs: spec.timeoutMs,
    load: loadImplementation,
    execute: async (args, context) => (await loadImplementation()).execute(args, context),
    preview: async (args, context) => (await loadImplementation()).preview(args, context),
  };
  return tool;
}

/**
 * The loaded tool, when it is the one the spec promised: the model was offered the spec's schema and
 * the permission policy judged by its flags, so a tool that says otherwise (a spec left stale) is refused.
 */
function agreeing(spec: ToolSpec, tool: Tool): Tool {
  const promised = (s: ToolSpec) => canonicalJson({ name: s.name, description: s.description, parameters: s.parameters, readOnly: s.readOnly, needsApproval: s.needsApproval, category: s.category });
  if (promised(specOf(tool)) !== promised(spec)) {
    throw new Error(`the ${spec.name} tool does not match the spec it was offered with (its name, description, schema or permission changed; for the built-in tools run \`npm run tool-specs\`).`);
  }
  return tool;
}
