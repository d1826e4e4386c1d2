import { defineTool } from '../tools/define-tool.js';
import type { Tool } from '../contracts/tool.js';
import type { OutputStore } from '../tools/output-store.js';

import { READ_OUTPUT_TOOL } from './read-output-name.js';

export { READ_OUTPUT_TOOL };

/**
 * Reads back a tool output that the context policy capped or elided, in slices. The id comes
 * from the note or stub the model saw ("read_output id out_…").
 */
export function createReadOutputTool(store: OutputStore, options: { maxLimit?: number } = {}): Tool {
  const maxLimit = options.maxLimit ?? 8_000;
  return defineTool({
    name: READ_OUTPUT_TOOL,
    // Short: it is offered in every request from the first (a fixed tool list keeps the prompt cache).
    description: 'Read part of a tool output shortened in the conversation, by the out_… id its note gives.',
    parameters: (z) => z.object({
      id: z.string().regex(/^out_[0-9a-f]{12}$/, 'an output id looks like out_ followed by 12 hex digits'),
      offset: z.number().int().min(0).optional().describe('first character to return (default 0)'),
      limit: z.number().int().min(1).optional().describe(`characters to return (default and maximum ${maxLimit})`),
    }),
    readOnly: true,
    timeoutMs: 10_000,
    async execute({ id, offset = 0, limit = maxLimit }) {
      const text = await store.get(id);
      if (text === undefined) return { output: `No stored output has the id ${id}. Use an id exactly as it appears in a note or stub.`, isError: true };
      if (offset > text.length) return { output: `Offset ${offset} is past the end of output ${id} (${text.length} characters).`, isError: true };
      const end = Math.min(text.length, offset + Math.min(limit, maxLimit));
      const more = end < text.length ? `; more from offset ${end}` : '; end of output';
      return `[output ${id}: characters ${offset}–${end} of ${text.length}${more}]\n${text.slice(offset, end)}`;
    },
  });
}
