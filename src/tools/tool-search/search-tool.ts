import { z } from 'zod';
import { checkWithZod } from '../zod-check.js';
import type { Tool } from '../../contracts/tool.js';
import { CALL_TOOL, SEARCH_PARAMETERS, TOOL_SEARCH } from './tool-offer.js';

/** The tool the model searches with, loaded at its first call (it brings zod). */
export function makeSearchTool(search: (query: string, limit?: number) => Promise<Tool[]>, description: () => string, native = false): Tool {
  const parameters = z.object({ query: z.string(), limit: z.number().int().min(1).max(50).optional() });
  return {
    name: TOOL_SEARCH,
    get description() {
      return description();
    },
    checkArguments: (args) => checkWithZod(parameters, args),
    get schema() {
      return { name: TOOL_SEARCH, description: description(), parameters: SEARCH_PARAMETERS };
    },
    readOnly: true,
    needsApproval: false,
    permission: { category: 'read' },
    timeoutMs: undefined,
    execute: async (args) => {
      const { query, limit } = parameters.parse(args);
      const found = await search(query, limit);
      if (!found.length) return `No tool matches "${query}". Try other words, fewer required (+) words, or select:name with a name from this tool's list.`;
      if (native) {
        const names = found.map((tool) => tool.name);
        return { output: `${found.length} tool${found.length === 1 ? '' : 's'} loaded for "${query}": ${names.join(', ')}`, toolReferences: names };
      }
      const lines = found.map((tool) => JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.schema.parameters }));
      return `${found.length} tool${found.length === 1 ? '' : 's'} loaded for "${query}"; call one in your next reply with ${CALL_TOOL} {"name", "arguments"}:\n${lines.join('\n')}`;
    },
    preview: async (args) => ({ summary: `${TOOL_SEARCH} ${JSON.stringify(args)}` }),
  };
}
