// A scripted stand-in for a model choosing among many similar tools (the tool-choice eval suite,
// eval/tool-search): it scores each tool it can see by how many words of the task appear in the
// tool's name and description, and calls the best one with the arguments the task spells out.
// It sees every schema when they are all offered; with tool search it searches with the task's
// sentence and chooses among the results. Not a language model: its figures measure the search
// and this naive chooser, nothing about any real model's judgement.

const STOP = new Set(['the', 'a', 'an', 'in', 'of', 'to', 'for', 'it', 'is', 'that', 'and', 'use', 'mcp', 'tools', 'arguments', 'by', 'from', 'titled', 'called']);
const words = (text) => text.toLowerCase().replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[^a-z0-9@.]+/).filter((word) => word.length > 1 && !STOP.has(word));

/** The task's sentence and its arguments, from a prompt "… Use the MCP tools; arguments: {…}". */
export function readTask(prompt) {
  const at = prompt.indexOf(' Use the MCP tools; arguments: ');
  return { sentence: prompt.slice(0, at), args: JSON.parse(prompt.slice(at + ' Use the MCP tools; arguments: '.length)) };
}

/** The best tool for the sentence among `{name, description}`: most task words in name and description, names counting double. */
export function choose(sentence, tools) {
  const wanted = new Set(words(sentence).map((word) => word.replace(/s$/, '')));
  let best;
  for (const tool of tools) {
    const stem = (list) => list.map((word) => word.replace(/s$/, ''));
    const inName = stem(words(tool.name.replace(/^mcp__/, '').replace(/_/g, ' ')));
    const inText = new Set(stem(words(tool.description ?? '')));
    const score = [...wanted].reduce((sum, word) => sum + (inName.includes(word) ? 2 : 0) + (inText.has(word) ? 1 : 0), 0);
    if (!best || score > best.score) best = { name: tool.name, score };
  }
  return best?.name;
}

const userText = (body) => {
  const user = body.messages.find((message) => message.role === 'user');
  return typeof user?.content === 'string' ? user.content : (user?.content ?? []).map((part) => part.text ?? '').join('');
};
const toolSchemas = (body) => (body.tools ?? []).map((tool) => tool.function ?? tool);

/** The call for round `round` of a Chat Completions request (see bench/cache-session-server.mjs). */
export function toolChoiceCall(round, _names, body) {
  const { sentence, args } = readTask(userText(body));
  const tools = toolSchemas(body);
  if (!tools.some((tool) => tool.name === 'tool_search')) return { name: choose(sentence, tools.filter((tool) => tool.name.startsWith('mcp__'))), arguments: args };
  if (round === 0) return { name: 'tool_search', arguments: { query: sentence } };
  const result = [...body.messages].reverse().find((message) => message.role === 'tool')?.content ?? '';
  const found = String(result).split('\n').slice(1).flatMap((line) => {
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });
  return { name: 'call_tool', arguments: { name: choose(sentence, found), arguments: args } };
}
