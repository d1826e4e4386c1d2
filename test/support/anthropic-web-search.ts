/**
 * Anthropic's web search tool on the test server: a reply whose search ran server-side
 * (`server_tool_use`, then `web_search_tool_result` with encrypted results, then text blocks with
 * `web_search_result_location` citations), and the checks on what comes back.
 *
 * What the API documents (https://platform.claude.com/docs/en/agents-and-tools/tool-use/server-tools
 * and .../web-search-tool): the result block follows its `server_tool_use` in the same assistant
 * turn, paired by `tool_use_id`; a search called beside a client tool comes without its result and
 * runs when the next request sends the turn back; `encrypted_content` and `encrypted_index` are
 * opaque and must be passed back unchanged for the citations to hold. This server refuses (HTTP
 * 400) a result whose encrypted content or page was altered or never issued, a result with no
 * `server_tool_use` before it, a citation whose index was not issued or whose search result is no
 * longer in the request, and (stricter than the API, as for tool calls) the previous reply's
 * server blocks and cited text not coming back exactly as sent.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ScriptedReply } from '../../src/providers/scripted.js';
import type { SseEvent } from './anthropic-frames.js';
import type { AnthropicRequestBody, WireBlock } from './anthropic-protocol-check.js';

export interface WebSearchStep {
  kind: 'web_search';
  query: string;
  results: Array<{ url: string; title: string }>;
  /** The answer's text, cited to the results (by position) given in `cite`; then `reply.toolCalls` as client calls. */
  reply: ScriptedReply;
  /** Which results the text cites (default: the first). */
  cite?: number[];
  /** The search is left without its result, as when Claude calls a client tool at the same time. */
  pending?: boolean;
  /** Ends with `pause_turn` (the server's loop paused; the client sends the turn back to continue). */
  pause?: boolean;
}

/** What the server issued, to check what comes back. */
export interface WebSearchState {
  /** encrypted_content → the page it was issued for. */
  results: Map<string, { url: string; title: string }>;
  /** encrypted_index → the encrypted_content of the result it points into. */
  indexes: Map<string, string>;
  /** server_tool_use id → its input. */
  uses: Map<string, unknown>;
}

export function newWebSearchState(): WebSearchState {
  return { results: new Map(), indexes: new Map(), uses: new Map() };
}

export interface BuiltSearch {
  /** The reply's content blocks, whole (what must come back). */
  content: WireBlock[];
  toolUses: Array<{ type: 'tool_use'; id: string; name: string; input: unknown }>;
  stopReason: string;
}

export function buildSearchReply(step: WebSearchStep, state: WebSearchState, next: () => number): BuiltSearch {
  const n = next();
  const useId = `srvtoolu_${n}`;
  const input = { query: step.query };
  state.uses.set(useId, input);
  const content: WireBlock[] = [{ type: 'server_tool_use', id: useId, name: 'web_search', input }];
  const results = step.results.map((page, i) => {
    const encrypted = `enc_${n}_${i}_${Buffer.from(page.url).toString('base64url')}`;
    state.results.set(encrypted, page);
    return { type: 'web_search_result', url: page.url, title: page.title, encrypted_content: encrypted, page_age: null };
  });
  if (!step.pending) content.push({ type: 'web_search_tool_result', tool_use_id: useId, content: results });
  if (!step.pending && step.reply.text) {
    content.push({ type: 'text', text: 'Here is what I found: ' });
    const citations = (step.cite ?? [0]).map((at, i) => {
      const result = results[at]!;
      const index = `idx_${n}_${i}`;
      state.indexes.set(index, result.encrypted_content);
      return { type: 'web_search_result_location', url: result.url, title: result.title, cited_text: `quoted from ${result.title}`, encrypted_index: index };
    });
    content.push({ type: 'text', text: step.reply.text, citations });
  }
  const toolUses = (step.reply.toolCalls ?? []).map((call, i) => ({ type: 'tool_use' as const, id: call.id ?? `toolu_${n}_${i}`, name: call.name, input: typeof call.arguments === 'string' ? JSON.parse(call.arguments) : call.arguments }));
  content.push(...toolUses);
  return { content, toolUses, stopReason: step.pause ? 'pause_turn' : toolUses.length ? 'tool_use' : 'end_turn' };
}

/** The reply as the API streams it: server_tool_use input as JSON deltas, a result whole, citations as citations_delta. */
export function searchEvents(model: string, built: BuiltSearch, usage: Record<string, unknown>): SseEvent[] {
  const events: SseEvent[] = [{ event: 'message_start', data: { type: 'message_start', message: { id: 'msg_search', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } } }];
  built.content.forEach((block, index) => {
    const start = (content_block: unknown) => events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block } });
    const delta = (value: unknown) => events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: value } });
    if (block.type === 'server_tool_use' || block.type === 'tool_use') {
      start({ ...block, input: {} });
      delta({ type: 'input_json_delta', partial_json: JSON.stringify(block.input) });
    } else if (block.type === 'text') {
      start({ type: 'text', text: '', citations: null });
      for (const citation of (block.citations as unknown[] | undefined) ?? []) delta({ type: 'citations_delta', citation });
      delta({ type: 'text_delta', text: block.text });
    } else {
      start(block);
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  const searches = built.content.filter((block) => block.type === 'web_search_tool_result').length;
  events.push({ event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: built.stopReason, stop_sequence: null }, usage: { output_tokens: 20, server_tool_use: { web_search_requests: searches } } } });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

const blocksOf = (content: string | WireBlock[]): WireBlock[] => (typeof content === 'string' ? [] : content);

/** The search blocks and citations of every assistant message, checked against what was issued. */
export function checkSearchBlocks(body: AnthropicRequestBody, state: WebSearchState): string[] {
  const problems: string[] = [];
  const echoedResults = new Set<string>();
  body.messages.forEach((message, i) => {
    const uses = new Set<string>();
    blocksOf(message.content).forEach((block, j) => {
      const where = `messages.${i}.content.${j}`;
      const serverBlock = block.type === 'server_tool_use' || block.type === 'web_search_tool_result';
      if (serverBlock && message.role !== 'assistant') problems.push(`${where}: ${block.type} is only allowed in assistant messages`);
      if (block.type === 'server_tool_use') {
        const issued = state.uses.get(String(block.id));
        if (!issued || !isDeepStrictEqual(issued, block.input) || block.name !== 'web_search') problems.push(`${where}: server_tool_use ${String(block.id)} was not issued by the server or was altered`);
        uses.add(String(block.id));
      }
      if (block.type === 'web_search_tool_result') {
        if (!uses.has(String(block.tool_use_id))) problems.push(`${where}: web_search_tool_result ${String(block.tool_use_id)} must follow its server_tool_use in the same assistant message`);
        const results = Array.isArray(block.content) ? (block.content as WireBlock[]) : [];
        results.forEach((result, k) => {
          const page = state.results.get(String(result.encrypted_content));
          if (!page || page.url !== result.url || page.title !== result.title) problems.push(`${where}.content.${k}: invalid encrypted_content in web_search_result (altered, or not issued for this page)`);
          else echoedResults.add(String(result.encrypted_content));
        });
      }
      if (block.type === 'text' && Array.isArray(block.citations)) {
        (block.citations as WireBlock[]).forEach((citation, k) => {
          if (citation.type !== 'web_search_result_location') return;
          const target = state.indexes.get(String(citation.encrypted_index));
          if (!target || state.results.get(target)?.url !== citation.url) problems.push(`${where}.citations.${k}: invalid encrypted_index in web_search_result_location`);
          else if (!echoedResults.has(target)) problems.push(`${where}.citations.${k}: the citation's web search result is not in the request (its web_search_tool_result was dropped or altered)`);
        });
      }
    });
  });
  return problems;
}

/** The previous reply's blocks, in order, in the assistant message that carries its first one. */
export function checkSearchEcho(body: AnthropicRequestBody, sent: WireBlock[]): string[] {
  const first = sent[0];
  if (!first) return [];
  const carrier = body.messages.find((message) => message.role === 'assistant' && blocksOf(message.content).some((block) => isDeepStrictEqual(withoutMark(block), first)));
  if (!carrier) return [`the previous reply's ${first.type} block is missing from the history`];
  const blocks = blocksOf(carrier.content).map(withoutMark);
  const at = blocks.findIndex((block) => isDeepStrictEqual(block, first));
  return isDeepStrictEqual(blocks.slice(at, at + sent.length), sent) ? [] : ["the previous reply's server-tool blocks and cited text did not come back as sent"];
}

/** A block without the cache breakpoint the client may add. */
function withoutMark(block: WireBlock): WireBlock {
  const { cache_control: _mark, ...rest } = block;
  return rest as WireBlock;
}
