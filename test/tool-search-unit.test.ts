/** Tool search's parts: the setting, the threshold, the queries, the cache-miss reason. */
import { describe, expect, it } from 'vitest';
import { explainMiss } from '../src/core/explain-miss.js';
import type { ModelRequest } from '../src/contracts/provider.js';
import type { Tool } from '../src/contracts/tool.js';
import { ToolSearchIndex, parseQuery } from '../src/tools/tool-search/search-index.js';
import { ToolSearch } from '../src/tools/tool-search/tool-search.js';
import { parseToolSearchMode } from '../src/tools/tool-search/tool-search-mode.js';

/** A tool as an MCP server's would look to tool search (only what it reads). */
function mcp(server: string, tool: string, description: string, args: string[] = [], alwaysLoad = false): Tool {
  const name = `mcp__${server}__${tool}`;
  const parameters = { type: 'object', properties: Object.fromEntries(args.map((arg) => [arg, { type: 'string', description: `the ${arg}` }])) };
  return { name, description, schema: { name, description, parameters }, search: { server, tool, ...(alwaysLoad ? { alwaysLoad } : {}) } } as unknown as Tool;
}

const TOOLS = [
  mcp('github', 'create_issue', 'Opens a new issue in a repository.', ['repo', 'title', 'body']),
  mcp('github', 'list_issues', 'Lists the issues of a repository.', ['repo', 'state']),
  mcp('github', 'create_pull_request', 'Opens a pull request from a branch.', ['repo', 'head', 'base']),
  mcp('jira', 'create_ticket', 'Files a new ticket in a Jira project.', ['project', 'summary']),
  mcp('slack', 'post_message', 'Posts a message to a Slack channel.', ['channel', 'text']),
  mcp('slack', 'search_messages', 'Finds messages by words.', ['query']),
  mcp('weather', 'get_forecast', 'The weather forecast for a city.', ['city']),
  mcp('weather', 'get_alerts', 'Weather alerts for a US state.', ['stateCode']),
  mcp('files', 'read_document', 'Reads a document.', ['path']),
  mcp('files', 'write_document', 'Writes a document.', ['path', 'content']),
];

describe('the toolSearch setting', () => {
  it('reads auto, auto:N, always and never; anything else says what it expects', () => {
    expect(parseToolSearchMode('auto')).toEqual({ kind: 'auto', percent: 10 });
    expect(parseToolSearchMode('auto:25')).toEqual({ kind: 'auto', percent: 25 });
    expect(parseToolSearchMode('always')).toEqual({ kind: 'always' });
    expect(parseToolSearchMode('never')).toEqual({ kind: 'never' });
    for (const bad of ['auto:0', 'auto:101', 'auto:x', 'sometimes', '']) expect(parseToolSearchMode(bad)).toMatch(/^expected auto, auto:N/);
  });
});

describe('the threshold', () => {
  const tokens = TOOLS.reduce((sum, tool) => sum + Math.ceil(JSON.stringify(tool.schema).length / 4), 0);

  it('auto defers once the deferrable schemas pass the share of the window, and stays deferred', () => {
    const under = new ToolSearch({ mode: { kind: 'auto', percent: 10 }, contextWindow: tokens * 10 + 10 });
    expect(under.schemas(TOOLS)).toHaveLength(TOOLS.length);
    const over = new ToolSearch({ mode: { kind: 'auto', percent: 10 }, contextWindow: tokens * 10 - 10 });
    expect(over.schemas(TOOLS).map((schema) => schema.name)).toEqual(['tool_search', 'call_tool']);
    // Fewer tools later (a server left) do not flip the offer back within the run.
    expect(over.schemas(TOOLS.slice(0, 2)).map((schema) => schema.name)).toEqual(['tool_search', 'call_tool']);
  });

  it('always and never; a tool the server marks always loaded stays in the offer', () => {
    const always = new ToolSearch({ mode: { kind: 'always' }, contextWindow: 1_000_000 });
    const marked = [...TOOLS, mcp('github', 'whoami', 'Who you are.', [], true)];
    expect(always.schemas(marked).map((schema) => schema.name)).toEqual(['mcp__github__whoami', 'tool_search', 'call_tool']);
    expect(new ToolSearch({ mode: { kind: 'never' }, contextWindow: 1_000 }).schemas(TOOLS)).toHaveLength(TOOLS.length);
  });

  it('lists each deferred tool by name and one line in the search tool, and reports the deferral once', () => {
    const search = new ToolSearch({ mode: { kind: 'always' }, contextWindow: 1_000 });
    const [first] = search.schemas(TOOLS);
    expect(first!.description).toContain('- mcp__weather__get_alerts: Weather alerts for a US state.');
    search.schemas(TOOLS);
    const notes = search.takeNotes();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ action: 'deferred', deferred: TOOLS.map((tool) => tool.name) });
  });
});

describe('queries', () => {
  const index = new ToolSearchIndex(TOOLS);

  it('ranks by BM25 over name, server, title, description and argument names', () => {
    expect(index.search('weather alerts')[0]).toBe('mcp__weather__get_alerts');
    expect(index.search('open issue github')[0]).toBe('mcp__github__create_issue');
    // An argument name (camelCase split) is searched too.
    expect(index.search('state code')[0]).toBe('mcp__weather__get_alerts');
    expect(index.search('slack')).toEqual(expect.arrayContaining(['mcp__slack__post_message', 'mcp__slack__search_messages']));
  });

  it('select:name,name loads exactly those, by our name or the server\'s own; unknown names are left out', () => {
    expect(index.search('select:mcp__slack__post_message,weather/get_forecast,nope')).toEqual(['mcp__slack__post_message', 'mcp__weather__get_forecast']);
    expect(parseQuery('select:a, b')).toEqual({ select: ['a', 'b'], required: [], terms: [] });
  });

  it('+term requires the term; the default is 8 results', () => {
    expect(index.search('create +github')).toEqual(expect.arrayContaining(['mcp__github__create_issue', 'mcp__github__create_pull_request']));
    expect(index.search('create +github')).not.toContain('mcp__jira__create_ticket');
    expect(index.search('a document issue message weather create repository ticket forecast').length).toBeLessThanOrEqual(8);
    expect(index.search('xyzzy')).toEqual([]);
  });
});

describe('the cache-miss reason', () => {
  it('names the tools deferral added to the list when that is what changed', () => {
    const search = new ToolSearch({ mode: { kind: 'always' }, contextWindow: 1_000 });
    const request = (tools: Tool[]): ModelRequest => ({ model: 'm', temperature: 0, tools: search.schemas(tools), messages: [{ role: 'user', content: 'go' }] });
    const [before, after] = [request(TOOLS.slice(0, 3)), request(TOOLS)];
    expect(explainMiss(before, after, 0, 300_000)?.why).toBe(`tool list changed: deferred behind tool_search: ${TOOLS.slice(3).map((tool) => tool.name).join(', ')}`);
  });
});
