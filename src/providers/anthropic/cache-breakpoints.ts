import type { ContentBlockParam, MessageCreateParamsBase, MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';

/** How long Anthropic keeps a prefix after its last use: 5 minutes (writes 1.25× input) or an hour (2×). */
export type CacheTtl = '5m' | '1h';
export const CACHE_TTLS: readonly CacheTtl[] = ['5m', '1h'];

/** The API refuses a fifth breakpoint. */
const MAX_BREAKPOINTS = 4;
/** Rough, and on the low side for code: a prefix this estimate puts under the minimum is left unmarked. */
const BYTES_PER_TOKEN = 4;

/**
 * The smallest prefix Anthropic caches for a model (documented per model, 2026-12); a breakpoint
 * on a shorter one caches nothing.
 */
export function minimumCacheableTokens(model: string): number {
  const name = model.toLowerCase();
  if (/(?:opus|sonnet|fable|mythos)-5/.test(name)) return 512;
  if (/haiku-4|opus-4-[56]/.test(name)) return 4096;
  if (/opus-4-7|haiku-3/.test(name)) return 2048;
  return 1024;
}

type Marked = { cache_control?: { type: 'ephemeral'; ttl?: CacheTtl } | null };

/**
 * Marks the request's cache breakpoints, in the order the API reads them (tools, system,
 * messages), at most four:
 * - the last tool and the system prompt: they never change within a session, so they get the
 *   longer lifetime when `ttl` is "1h";
 * - the newest message, so the next request reads everything sent now; and the user message
 *   before the newest reply, where the previous request put its breakpoint, so this one reads it
 *   even when the newest turn added more than the API's 20-block look-back.
 * Those two are written every turn and are superseded by the next, so they stay at 5 minutes
 * (and a 1h breakpoint may not follow a 5m one, which this order respects). A breakpoint whose
 * prefix is under the model's minimum is left off: it would cache nothing. Thinking blocks are
 * never marked (the API refuses it); the mark goes on the message's last other block.
 */
export function withCacheBreakpoints(params: MessageCreateParamsBase, ttl: CacheTtl): MessageCreateParamsBase {
  const minimum = minimumCacheableTokens(params.model);
  const stableTtl = ttl === '1h' ? { ttl: '1h' as const } : {};
  let tokens = 0;
  let used = 0;
  const out: MessageCreateParamsBase = { ...params };

  if (params.tools?.length) {
    tokens += params.tools.reduce((sum, tool) => sum + estimate(tool), 0);
    const last = params.tools.length - 1;
    if (tokens >= minimum) {
      out.tools = params.tools.map((tool, i) => (i === last ? { ...tool, cache_control: { type: 'ephemeral', ...stableTtl } } : tool));
      used++;
    }
  }
  if (params.system !== undefined) {
    const blocks: TextBlockParam[] = typeof params.system === 'string' ? [{ type: 'text', text: params.system }] : params.system;
    tokens += blocks.reduce((sum, block) => sum + estimate(block), 0);
    if (tokens >= minimum && blocks.length && blocks[blocks.length - 1]!.text.trim()) {
      out.system = blocks.map((block, i) => (i === blocks.length - 1 ? { ...block, cache_control: { type: 'ephemeral', ...stableTtl } } : block));
      used++;
    }
  }

  // The first message whose prefix reaches the minimum: every later one does too, so the history
  // past it is never measured (this runs on every request, over the whole conversation).
  let firstCacheable = 0;
  while (tokens < minimum && firstCacheable < params.messages.length) tokens += estimate(params.messages[firstCacheable++]!.content);
  firstCacheable = tokens >= minimum ? firstCacheable - 1 : params.messages.length;
  const newest = params.messages.length - 1;
  const lastReply = params.messages.findLastIndex((message) => message.role === 'assistant');
  const previous = lastReply > 0 ? lastReply - 1 : -1;
  const rolling = [newest, previous].filter((index, i, all) => index >= 0 && all.indexOf(index) === i && index >= firstCacheable);
  const marks = new Set(rolling.slice(0, MAX_BREAKPOINTS - used));
  if (marks.size) out.messages = params.messages.map((message, i) => (marks.has(i) ? ({ ...message, content: marked(message.content) } as MessageParam) : message));
  return out;
}

/** The content with its last block that may carry a breakpoint marked (5 minutes); unchanged when none may. */
function marked(content: string | ContentBlockParam[]): string | ContentBlockParam[] {
  const blocks: ContentBlockParam[] = typeof content === 'string' ? [{ type: 'text', text: content }] : [...content];
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i]!;
    if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    if (block.type === 'text' && !block.text.trim()) continue;
    blocks[i] = { ...block, cache_control: { type: 'ephemeral' } } as ContentBlockParam & Marked;
    return blocks;
  }
  return content;
}

function estimate(value: unknown): number {
  return Math.ceil(Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value), 'utf8') / BYTES_PER_TOKEN);
}
