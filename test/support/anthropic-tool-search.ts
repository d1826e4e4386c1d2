/**
 * Deferred tools on the Messages API, as its tool-search documentation states them: a tool with
 * `defer_loading: true` is kept out of the prompt until a `tool_reference` block (in a tool_result)
 * names it; at least one tool must not be deferred; a reference must name a deferred tool of the
 * request. And, since the model cannot call what it has not seen, a `tool_use` of a deferred tool
 * must come after a reference to it. A proxy that does not know the format (`refuse`) rejects the
 * field as unknown, as strict proxies do.
 */
import type { AnthropicRequestBody, WireBlock } from './anthropic-protocol-check.js';

const blocksOf = (content: string | WireBlock[]): WireBlock[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : content);

export function checkToolSearch(body: AnthropicRequestBody, refuse: boolean): string[] {
  const problems: string[] = [];
  const tools = (body.tools ?? []) as Array<{ name?: unknown; defer_loading?: unknown }>;
  const deferred = new Set<string>();
  tools.forEach((tool, i) => {
    if (tool.defer_loading === undefined) return;
    if (refuse) problems.push(`tools.${i}.defer_loading: Extra inputs are not permitted`);
    else if (typeof tool.defer_loading !== 'boolean') problems.push(`tools.${i}.defer_loading: Input should be a valid boolean`);
    else if (tool.defer_loading) deferred.add(String(tool.name));
  });
  if (!refuse && tools.length && deferred.size === tools.length) problems.push('All tools have defer_loading set. At least one tool must be non-deferred.');
  const loaded = new Set<string>();
  body.messages.forEach((message, i) => {
    blocksOf(message.content).forEach((block, j) => {
      if (block.type === 'tool_use' && deferred.has(String(block.name)) && !loaded.has(String(block.name))) {
        problems.push(`messages.${i}.content.${j}: tool_use of the deferred tool ${String(block.name)}, which no earlier tool_reference loaded`);
      }
      if (block.type !== 'tool_result' || !Array.isArray(block.content)) return;
      (block.content as WireBlock[]).forEach((inner, k) => {
        if (inner.type !== 'tool_reference') return;
        const where = `messages.${i}.content.${j}.content.${k}`;
        if (refuse) problems.push(`${where}.type: Input tag 'tool_reference' found using 'type' does not match any of the expected tags`);
        else if (typeof inner.tool_name !== 'string' || !deferred.has(inner.tool_name)) problems.push(`${where}: Tool reference '${String(inner.tool_name)}' does not name a deferred tool of this request`);
        else loaded.add(inner.tool_name);
      });
    });
  });
  return problems;
}
