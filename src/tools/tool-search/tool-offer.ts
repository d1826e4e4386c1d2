import type { ToolSchema } from '../../contracts/provider.js';

export const TOOL_SEARCH = 'tool_search';
export const CALL_TOOL = 'call_tool';
/** How many tools a search returns unless it asks for another number. */
export const DEFAULT_RESULTS = 8;

/** A rough token count of a schema as sent (about 4 characters a token for JSON). */
export function schemaTokens(schema: ToolSchema): number {
  return Math.ceil(JSON.stringify(schema).length / 4);
}

/** One line of a description: its first sentence or line, at most 120 characters. */
export function oneLine(description: string): string {
  const first = description.trim().split(/\n|(?<=[.!?])\s/)[0]!.trim();
  return first.length > 120 ? `${first.slice(0, 119)}…` : first;
}

export const SEARCH_PARAMETERS = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'Words to search for; +word requires a word; select:name,name loads those tools exactly.' },
    limit: { type: 'integer', minimum: 1, maximum: 50, description: `How many tools to return (default ${DEFAULT_RESULTS}).` },
  },
  required: ['query'],
  additionalProperties: false,
};

export const CALL_PARAMETERS = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'The name of a tool tool_search loaded.' },
    arguments: { type: 'object', description: "The tool's arguments, as its JSON Schema from tool_search asks." },
  },
  required: ['name', 'arguments'],
  additionalProperties: false,
};

export const CALL_DESCRIPTION =
  'Calls a tool that tool_search loaded in an earlier reply: name is the tool, arguments its arguments as its schema asks. ' +
  'Tools offered directly are called directly, not through this.';

export function searchDescription(listing: string, native = false): string {
  const found = native
    ? 'The tools found are loaded: call them by their own names in your next reply.'
    : `The result gives each tool's name, description and JSON Schema; call a loaded tool in a later reply with ${CALL_TOOL} {"name": ..., "arguments": {...}}, not in the same reply as the search.`;
  return (
    `Finds and loads tools that are not offered directly. Search with words (ranked over each tool's name, server, title, description and argument names), ` +
    `require a word with +word, or load tools by name with select:name,name. ${found}\n` +
    `Tools available through this search:\n${listing}`
  );
}
