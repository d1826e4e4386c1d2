import type { ToolSchema } from '../../contracts/provider.js';

/** The reply contract, word for word; also the reminder after a reply that broke it. */
export const REPLY_CONTRACT =
  'Reply with exactly one JSON object and nothing else: {"tool": "<name>", "arguments": {...}} to call a tool, ' +
  'or {"answer": "<text>"} when you have the final answer.';

/**
 * The tools described in text, for a model that gets no native tool schemas. Byte-stable: the same
 * tools give the same text, so a server's prompt cache keeps working across turns.
 */
export function protocolPrompt(tools: ToolSchema[]): string {
  const lines = [
    'You can call tools. Tools are called by replying with JSON, not with native tool calls.',
    REPLY_CONTRACT,
    'One call per reply; its result comes back as a message "Result of <tool> (call <id>): ...".',
    '',
    'Tools:',
    ...tools.map((tool) => `- ${tool.name}: ${oneLine(tool.description)} Arguments (JSON Schema): ${JSON.stringify(compactSchema(tool.parameters))}`),
  ];
  return lines.join('\n');
}

/** The schema without what only a validator needs; the model reads every byte of it. */
function compactSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dropped, ...rest } = schema;
  return rest;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
