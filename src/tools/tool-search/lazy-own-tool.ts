import { lazyModule } from '../../contracts/lazy-module.js';
import type { Tool } from '../../contracts/tool.js';
import type { ToolSchema } from '../../contracts/provider.js';

export interface OwnToolSpec {
  name: string;
  /** Read each time the offer is built (tool_search's lists the deferred tools). */
  description: () => string;
  parameters: Record<string, unknown>;
  readOnly: boolean;
}

/**
 * One of tool search's own tools, offered from its spec; its code (and zod) loads at its first
 * call, as deferredTool does for the built-in tools (the registry awaits `load` before validating).
 */
export function lazyOwnTool(spec: OwnToolSpec, load: () => Promise<Tool>): Tool {
  const implementation = lazyModule(load);
  let schema: ToolSchema | undefined;
  const real = (): Tool => {
    const loaded = implementation.loaded();
    if (!loaded) throw new Error(`The ${spec.name} tool is not loaded yet: await its load() first.`);
    return loaded;
  };
  return {
    name: spec.name,
    get description() {
      return spec.description();
    },
    get schema() {
      // The same object while the description is the same: the registry holds the offer by identity.
      const description = spec.description();
      if (schema?.description !== description) schema = { name: spec.name, description, parameters: spec.parameters };
      return schema;
    },
    checkArguments: (args) => real().checkArguments(args),
    readOnly: spec.readOnly,
    needsApproval: false,
    permission: { category: 'read' },
    timeoutMs: undefined,
    load: implementation.load,
    execute: async (args, context) => (await implementation.load()).execute(args, context),
    preview: async (args, context) => (await implementation.load()).preview(args, context),
  };
}
