/**
 * The rules the Messages API enforces on a request, as strictly as the real service (and a
 * little more: the calls and signed thinking this server just sent must come back unchanged).
 */
import { checkInlineImage } from './image-check.js';
import { isDeepStrictEqual } from 'node:util';
import type { WireThinking, WireToolUse } from './anthropic-frames.js';
import { anthropicCacheProblems } from '../../bench/prompt-cache.mjs';

export interface WireBlock {
  type: string;
  [key: string]: unknown;
}

export interface AnthropicRequestBody {
  model: string;
  max_tokens?: unknown;
  system?: unknown;
  messages: Array<{ role: string; content: string | WireBlock[] }>;
  tools?: Array<{ name?: unknown; description?: unknown; input_schema?: { type?: unknown } }>;
  thinking?: { type: string; budget_tokens?: number };
  stream?: boolean;
  [key: string]: unknown;
}

/** What the server remembers between requests. */
export interface ProtocolState {
  /** Signature -> the thinking text and model it was issued for. */
  signatures: Map<string, { thinking: string; model: string }>;
  redacted: Set<string>;
  /** The last reply's calls and thinking: the next request must echo them. */
  previous: { toolUses: WireToolUse[]; thinking: WireThinking[] } | undefined;
}

const blocksOf = (content: string | WireBlock[]): WireBlock[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : content);

export function checkAnthropicProtocol(body: AnthropicRequestBody, state: ProtocolState): string[] {
  const problems: string[] = [];
  if (typeof body.model !== 'string' || !body.model) problems.push('model: field required');
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens) || body.max_tokens < 1) problems.push('max_tokens: field required (a positive integer)');
  if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system)) problems.push('system: must be a string or text blocks');
  if (typeof body.system === 'string' && !body.system.trim()) problems.push('system: text content blocks must be non-empty');
  if (body.thinking?.type === 'enabled') {
    const budget = body.thinking.budget_tokens ?? 0;
    if (budget < 1024) problems.push('thinking.budget_tokens: must be >= 1024');
    if (typeof body.max_tokens === 'number' && budget >= body.max_tokens) problems.push('max_tokens must be greater than thinking.budget_tokens');
  }
  for (const [i, tool] of (body.tools ?? []).entries()) {
    if (typeof tool.name !== 'string' || !tool.name) problems.push(`tools.${i}.name: field required`);
    // A server tool (web_search_20250305…) has a type and no schema.
    if (typeof (tool as { type?: unknown }).type === 'string' && (tool as { type: string }).type !== 'custom') continue;
    if (tool.input_schema?.type !== 'object') problems.push(`tools.${i}.input_schema: type must be "object"`);
  }

  problems.push(...anthropicCacheProblems(body));

  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return [...problems, 'messages: at least one message is required'];
  if (messages[0]!.role !== 'user') problems.push('messages.0: the first message must use the "user" role');

  messages.forEach((message, i) => {
    if (message.role !== 'user' && message.role !== 'assistant') {
      problems.push(`messages.${i}.role: "${message.role}" is not allowed (system goes in the top-level system field)`);
      return;
    }
    if (i > 0 && messages[i - 1]!.role === message.role) problems.push(`messages.${i}: roles must alternate between "user" and "assistant"`);
    const blocks = blocksOf(message.content);
    if (blocks.length === 0) problems.push(`messages.${i}: content must be non-empty`);
    blocks.forEach((block, j) => {
      if (block.type === 'text' && (typeof block.text !== 'string' || !block.text.trim())) problems.push(`messages.${i}.content.${j}: text content blocks must be non-empty`);
      if (block.type === 'tool_result' && message.role !== 'user') problems.push(`messages.${i}.content.${j}: tool_result is only allowed in user messages`);
      if (block.type === 'tool_use' && message.role !== 'assistant') problems.push(`messages.${i}.content.${j}: tool_use is only allowed in assistant messages`);
      if ((block.type === 'thinking' || block.type === 'redacted_thinking') && message.role !== 'assistant') problems.push(`messages.${i}.content.${j}: thinking is only allowed in assistant messages`);
      if (block.type === 'image') {
        if (message.role !== 'user') problems.push(`messages.${i}.content.${j}: image is only allowed in user messages`);
        problems.push(...checkImageBlock(block, `messages.${i}.content.${j}`));
      }
    });
    if (message.role === 'assistant') problems.push(...checkThinking(blocks, body.model, state, i));
    else problems.push(...checkResults(blocks, messages[i - 1], i));
    if (message.role === 'assistant') {
      const uses = blocks.filter((block) => block.type === 'tool_use').map((block) => String(block.id));
      const next = messages[i + 1];
      const answered = next && next.role === 'user' ? blocksOf(next.content).filter((b) => b.type === 'tool_result').map((b) => String(b.tool_use_id)) : [];
      const missing = uses.filter((id) => !answered.includes(id));
      if (missing.length) problems.push(`messages.${i}: tool_use ids were found without tool_result blocks immediately after: ${missing.join(', ')}`);
    }
  });
  problems.push(...checkEcho(body, state));
  return problems;
}

/** `{type:'image', source:{type:'base64', media_type, data}}`, at most 5 MB of base64. */
function checkImageBlock(block: WireBlock, where: string): string[] {
  const source = block.source as { type?: unknown; media_type?: unknown; data?: unknown } | undefined;
  if (!source || source.type !== 'base64') return [`${where}.source: image source must be {type: "base64", media_type, data}`];
  return checkInlineImage(`${where}.source`, source.media_type, source.data, 5 * 1024 * 1024);
}

function checkResults(blocks: WireBlock[], previous: { role: string; content: string | WireBlock[] } | undefined, i: number): string[] {
  const problems: string[] = [];
  const uses = previous && previous.role === 'assistant' ? blocksOf(previous.content).filter((b) => b.type === 'tool_use').map((b) => String(b.id)) : [];
  let seenOther = false;
  blocks.forEach((block, j) => {
    if (block.type !== 'tool_result') {
      seenOther = true;
      return;
    }
    if (seenOther) problems.push(`messages.${i}.content.${j}: tool_result blocks must come first in the user message`);
    if (!uses.includes(String(block.tool_use_id))) problems.push(`messages.${i}.content.${j}: unexpected tool_use_id ${String(block.tool_use_id)}: tool_result without matching tool_use in the previous assistant message`);
    const content = block.content;
    if (typeof content === 'string' && !content.trim()) problems.push(`messages.${i}.content.${j}: tool_result content must be non-empty`);
    if (Array.isArray(content)) {
      (content as WireBlock[]).forEach((inner, k) => {
        const where = `messages.${i}.content.${j}.content.${k}`;
        if (inner.type === 'image') problems.push(...checkImageBlock(inner, where));
        else if (inner.type === 'tool_reference') return; // checked by checkToolSearch
        else if (inner.type !== 'text' || typeof inner.text !== 'string' || !inner.text.trim()) problems.push(`${where}: tool_result content holds text and image blocks only`);
      });
    }
    if (block.is_error !== undefined && typeof block.is_error !== 'boolean') problems.push(`messages.${i}.content.${j}: is_error must be a boolean`);
  });
  return problems;
}

function checkThinking(blocks: WireBlock[], model: string, state: ProtocolState, i: number): string[] {
  const problems: string[] = [];
  blocks.forEach((block, j) => {
    if (block.type === 'thinking') {
      const issued = state.signatures.get(String(block.signature));
      if (!issued || issued.thinking !== block.thinking || issued.model !== model) problems.push(`messages.${i}.content.${j}: invalid signature in thinking block`);
    }
    if (block.type === 'redacted_thinking' && !state.redacted.has(String(block.data))) problems.push(`messages.${i}.content.${j}: invalid redacted_thinking data`);
  });
  return problems;
}

/** The calls just sent come back byte-for-byte; with thinking on, preceded by their signed thinking. */
function checkEcho(body: AnthropicRequestBody, state: ProtocolState): string[] {
  const previous = state.previous;
  if (!previous || previous.toolUses.length === 0) return [];
  const problems: string[] = [];
  const first = previous.toolUses[0]!;
  const carrier = body.messages.find((message) => message.role === 'assistant' && blocksOf(message.content).some((b) => b.type === 'tool_use' && b.id === first.id));
  if (!carrier) return [`tool_use ${first.id} (${first.name}) from the previous response is missing from the history`];
  const blocks = blocksOf(carrier.content);
  for (const use of previous.toolUses) {
    const found = blocks.find((b) => b.type === 'tool_use' && b.id === use.id);
    if (!found) problems.push(`tool_use ${use.id} (${use.name}) from the previous response is missing from the history`);
    else if (found.name !== use.name || !isDeepStrictEqual(found.input, use.input)) {
      problems.push(`tool_use ${use.id} was rewritten: sent ${JSON.stringify({ name: use.name, input: use.input })}, got back ${JSON.stringify({ name: found.name, input: found.input })}`);
    }
  }
  if (body.thinking?.type === 'enabled' && previous.thinking.length) {
    const leading = blocks.slice(0, previous.thinking.length);
    if (!isDeepStrictEqual(leading, previous.thinking)) {
      problems.push('the assistant message with tool_use must start with the thinking blocks of that response, unchanged (required with thinking enabled)');
    }
  }
  return problems;
}
