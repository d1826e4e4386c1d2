import type { AgentEvent } from '../contracts/events.js';
import type { AgentOptions } from '../core/loop.js';
import type { Message, Usage } from '../contracts/messages.js';
import type { RetryPolicy } from '../core/request-with-retry.js';
import type { Provider, ToolSchema } from '../contracts/provider.js';
import type { Tool } from '../contracts/tool.js';
import { errorText } from '../contracts/error-text.js';
import { sharedPrefix } from '../contracts/prefix-memo.js';
import { catalogLoaded } from '../providers/shared/model-catalog.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { compactHistory as CompactHistory, CompactResult } from './compact-history.js';
import { contextSettings, type ContextSettings, type ContextSettingsInput } from './context-settings.js';
import { MemoryOutputStore, type OutputStore } from '../tools/output-store.js';
import { capToolOutputs, ShrinkMemo } from './shrink-outputs.js';
import { cachePricesFor } from './cache-prices.js';
import { expectedRemainingRequests, rewritePays } from './rewrite-cost.js';
import { estimateStubBatch, planStubBatch, type StubBatch } from './stub-batch.js';
import { deferredTool } from '../tools/deferred-tool.js';
import { TOOL_SPECS } from '../tools/tool-specs.js';
import { builtInValidator } from '../tools/built-in-validator.js';
import type { RewriteReason } from '../contracts/events.js';
import { historyUpperBound, messageUpperBound, TokenCounter } from './token-count.js';
import { format } from './tool-result-cap.js';

/** Compaction's code (the summary prompt, the transcript) loads the first time a history needs compacting. */
const compactHistory: typeof CompactHistory = async (...args) => (await import('./compact-history.js')).compactHistory(...args);

export interface ContextPolicyOptions extends Omit<ContextSettingsInput, 'model' | 'provider'> {
  /** Used for summaries; its name also picks local-server defaults (ollama, vllm, lmstudio). */
  provider: Provider;
  /** Where full outputs go (default: the registry's store, where its cap keeps them; else in memory, for this process only). */
  store?: OutputStore;
  /** The agent's tools, read-only: their schemas are counted with each prompt (the loop holds the offer, never the policy). */
  registry?: ToolOffer;
  /** Awaited before each compaction that summarises something: `auto` when the window asks for one, `manual` for `compact` (with its focus). */
  beforeCompact?(trigger: 'auto' | 'manual', focus?: string): Promise<void>;
  /**
   * Called once, when the policy is created, with `read_output` over this policy's store (its code
   * loads on the first call): register it then (`registry.register(tool)`), so the tool list is the
   * same on every request and a shortened output never changes the cached prefix.
   */
  offerReadOutput?: (tool: Tool) => void;
  /** How long the provider keeps a prompt cache (default 5 minutes): idle longer, a rewrite costs nothing extra. */
  cacheTtlMs?: number;
  /** The clock (tests). */
  now?: () => number;
  /**
   * Rewrite at these turns only, for these reasons (a replay follows the recording's rewrite
   * points instead of weighing costs again, since timing and prices may differ).
   */
  rewriteAt?: (turn: number) => RewriteReason | undefined;
  /** The tool schemas sent with each request, when there is no registry (default: the registry's). */
  tools?: () => ToolSchema[];
  retry?: RetryPolicy;
}

/** What the policy may see of an agent's tools: the schemas offered, and where cut outputs are stored. */
export type ToolOffer = Pick<ToolRegistry, 'schemas' | 'outputs'>;

type Prepare = NonNullable<AgentOptions['prepareMessages']>;
type Overflow = NonNullable<AgentOptions['onContextOverflow']>;

export interface ContextPolicy {
  /** For AgentOptions.prepareMessages: cap new results, stub a batch at a rewrite point, compact when near the window. */
  prepareMessages: Prepare;
  /** For AgentOptions.onContextOverflow: compact harder after the provider said "too long". */
  onContextOverflow: Overflow;
  /** A compaction now, whatever the size (the `/compact` command). */
  compact(messages: Message[], options: { model: string; signal?: AbortSignal; turn?: number; focus?: string }): Promise<CompactResult>;
  /** The numbers in force for a model. */
  settings(model: string): ContextSettings;
  readonly store: OutputStore;
  /**
   * The same policy for another agent (a subagent) with state of its own: its learned ratio, its
   * last request, its carried cost, its cache clock. Same settings and output store; its tools are
   * its own, and it follows no recorded rewrite points (those are the top agent's).
   */
  contextForAgent(tools: ToolOffer): ContextPolicy;
}

/** Below this many estimated tokens a low reported count is noise (formatting), not truncation. */
const TRUNCATION_CHECK_MIN_TOKENS = 1_000;
/** Half of ~4 bytes a token (code and English): a server reporting less may be truncating. */
const PLAUSIBLE_BYTES_PER_TOKEN = 8;
/** After a rewrite the window forced, the prompt should be at most this share of `compactAt`, so the next one is far away. */
const WINDOW_LOW_WATER = 0.6;

/**
 * The context policy, run before every request. In order: cap new tool results (the full text
 * goes to the store) before they are first sent; at a rewrite point the cost model chooses (or
 * the window forces), stub older outputs in one batch; and when the prompt still nears the window,
 * have the model summarise older turns. Between rewrite points each request is the previous one
 * plus new messages, so the providers' prompt caches read it. Capping is a pure function of each
 * message; rewrites and compactions are recorded as events, so a session file rebuilds the bytes.
 */
export function createContextPolicy(options: ContextPolicyOptions): ContextPolicy {
  // The registry's cap stores whole outputs too: one store, so read_output finds both.
  const store = options.store ?? options.registry?.outputs ?? new MemoryOutputStore();
  if (options.offerReadOutput) {
    options.offerReadOutput(deferredTool(TOOL_SPECS.read_output!, async () => (await import('./read-output.js')).createReadOutputTool(store), { specFromBuild: true, validator: builtInValidator('read_output') }));
  }
  return agentPolicy(options, store);
}

/** One agent's policy: every `let` below is that agent's alone. */
function agentPolicy(options: ContextPolicyOptions, store: OutputStore): ContextPolicy {
  const settingsCache = new Map<string, ContextSettings>();
  // Provider-reported prompt tokens over our estimate for the same request.
  let ratio = 1;
  let lastSent: Message[] | undefined;
  // The last request and the prompt tokens the server reported for it, until a ratio is learned from them.
  let reported: { sent: Message[]; tokens: number } | undefined;
  // The last request whose reported count looked untruncated, with its tool schemas' size.
  let counted: { sent: Message[]; tokens: number; toolBytes: number } | undefined;
  let lastToolBytes = 0;
  let learnedWindow: number | undefined;
  let warnedTruncation = false;

  const settings = (model: string): ContextSettings => {
    // The catalog's window replaces the built-in table's once the catalog is loaded (model-windows.ts).
    const key = `${model}\u0000${learnedWindow ?? ''}\u0000${catalogLoaded()}`;
    let found = settingsCache.get(key);
    if (!found) {
      const window = learnedWindow ?? options.contextWindow;
      found = contextSettings({ ...options, model, provider: options.provider.name, ...(window !== undefined ? { contextWindow: window } : {}) });
      settingsCache.set(key, found);
    }
    return found;
  };
  const toolSchemas = () => options.tools?.() ?? options.registry?.schemas() ?? [];
  const shrinkMemo = new ShrinkMemo();
  const batchMemo = new ShrinkMemo();
  const now = options.now ?? Date.now;
  const cacheTtlMs = options.cacheTtlMs ?? 5 * 60_000;
  let lastRequestAt: number | undefined;
  // What carrying stubbable outputs has cost since the last rewrite point (see rewritePays).
  let carried = 0;
  const saved = new Set<string>();
  const historyBound = historyUpperBound();

  /** Saves full outputs once each; a store that cannot save is reported, never thrown across the loop. */
  async function save(stored: Array<{ id: string; text: string }>, turn: number, events: AgentEvent[]): Promise<void> {
    const unsaved = stored.filter(({ id }) => !saved.has(id));
    try {
      await Promise.all(unsaved.map(async ({ id, text }) => {
        await store.put(id, text);
        saved.add(id);
      }));
    } catch (error) {
      events.push({ type: 'context_warning', turn, message: `Could not save full tool outputs (read_output will not find them): ${errorText(error)}` });
    }
  }

  /** Caps new tool results (before they are first sent); earlier messages stay as they were sent. */
  async function cap(messages: Message[], s: ContextSettings, turn: number, events: AgentEvent[]): Promise<Message[]> {
    const capped = capToolOutputs(messages, s.maxToolResultChars, shrinkMemo);
    await save(capped.stored, turn, events);
    return capped.messages;
  }

  /** Applies a stub batch: the rewrite point, recorded so a resumed session rebuilds the same bytes. */
  async function rewrite(batch: StubBatch, reason: RewriteReason, turn: number, events: AgentEvent[]): Promise<Message[]> {
    await save(batch.stored, turn, events);
    carried = 0;
    events.push({ type: 'context_rewrite', turn, reason, stubbed: batch.stubbed, savedTokens: batch.savedTokens, rewrittenTokens: batch.rewrittenTokens });
    return batch.messages;
  }

  /**
   * The rewrite point's decision: stub the batch when the cost model says the saving pays for the
   * one miss (or the cache went cold), or when the window requires it; otherwise keep appending.
   */
  async function stubWhenItPays(messages: Message[], s: ContextSettings, model: string, turn: number, events: AgentEvent[], signal?: AbortSignal): Promise<Message[]> {
    if (options.rewriteAt) {
      const recorded = options.rewriteAt(turn);
      const batch = recorded ? await planStubBatch(messages, s, batchMemo, signal) : undefined;
      return batch && recorded && !signal?.aborted ? rewrite(batch, recorded, turn, events) : messages;
    }
    if ((await estimate(messages, s.compactAt, signal)) > s.compactAt) {
      const batch = await planStubBatch(messages, s, batchMemo, signal);
      return batch && !signal?.aborted ? rewrite(batch, 'window', turn, events) : messages;
    }
    const estimated = estimateStubBatch(messages, s.keepToolOutputTokens);
    if (!estimated) return messages;
    const cold = lastRequestAt !== undefined && now() - lastRequestAt > cacheTtlMs;
    const answer = rewritePays({
      prices: cachePricesFor(model, options.provider.name, cacheTtlMs),
      ...estimated,
      remainingRequests: expectedRemainingRequests(messages),
      carriedSoFar: carried,
      cold,
    });
    if (!answer.rewrite) {
      carried += answer.carryNow;
      return messages;
    }
    const batch = await planStubBatch(messages, s, batchMemo, signal);
    return batch && !signal?.aborted ? rewrite(batch, cold ? 'cold_cache' : 'cost', turn, events) : messages;
  }

  /**
   * The prompt size as the provider will count it; exact only when no bound can decide. First the
   * byte bound; then the server's own count for the last request plus the byte bound of what was
   * added since (when that request is this one's prefix and its count was plausible); only then
   * the tokenizer, which no round otherwise waits for.
   */
  async function estimate(messages: Message[], threshold: number, signal?: AbortSignal): Promise<number> {
    const toolBytes = toolSchemaBytes();
    const bound = historyBound(messages) + toolBytes;
    if (bound * Math.max(ratio, 1) <= threshold) return bound * Math.max(ratio, 1);
    const fromServer = serverBound(messages, toolBytes);
    if (fromServer !== undefined && fromServer <= threshold) return fromServer;
    await learnRatio(signal);
    return Math.round((await exactCount(messages, signal)) * ratio);
  }

  /**
   * The last plausible server count plus the byte bound of every message past the prefix shared
   * with that request (and of any growth of the tool schemas). An upper bound: chat formats count
   * each message on its own, so a message since dropped or replaced (a stub, a summary) only makes
   * the true count smaller.
   */
  function serverBound(messages: Message[], toolBytes: number): number | undefined {
    const last = counted;
    if (!last) return undefined;
    let added = Math.max(0, toolBytes - last.toolBytes);
    for (let i = sharedPrefix(last.sent, messages); i < messages.length; i++) added += messageUpperBound(messages[i]!);
    return last.tokens + added;
  }

  /** The request about to be sent, for the server's count that comes back with its reply. */
  function rememberSent(messages: Message[]): void {
    // A copy: the loop appends to the array it gets back.
    lastSent = [...messages];
    lastToolBytes = toolSchemaBytes();
    lastRequestAt = now();
  }

  let schemaBytes: { schemas: ToolSchema[]; bytes: number } | undefined;
  /** The registry hands out a new array each time, of the same schema objects until a tool comes or goes. */
  function toolSchemaBytes(): number {
    const schemas = toolSchemas();
    const known = schemaBytes;
    if (!known || known.schemas.length !== schemas.length || sharedPrefix(known.schemas, schemas) !== schemas.length) {
      schemaBytes = { schemas, bytes: Buffer.byteLength(JSON.stringify(schemas)) };
    }
    return schemaBytes!.bytes;
  }

  /** Exact, or the upper bound when aborted part way (the request will not be sent then). */
  async function exactCount(messages: Message[], signal?: AbortSignal): Promise<number> {
    const counter = await TokenCounter.create();
    await counter.warm(messages, signal);
    if (signal?.aborted) return historyBound(messages);
    return counter.messages(messages) + counter.tools(toolSchemas());
  }

  /** The server's count over ours for the last reported request: computed only when a decision needs it. */
  async function learnRatio(signal?: AbortSignal): Promise<void> {
    const last = reported;
    reported = undefined;
    if (!last) return;
    const observed = last.tokens / (await exactCount(last.sent, signal));
    if (!signal?.aborted && observed >= 0.5 && observed <= 2) ratio = observed;
  }

  /**
   * Warns once when the server counted far fewer prompt tokens than were sent (it truncates).
   * No round waits for the tokenizer unless the figure looks low: a count of at least a quarter
   * of the byte bound's 4-bytes-a-token estimate is taken as plausible.
   */
  async function checkReportedUsage(usage: Usage | undefined, turn: number, signal: AbortSignal | undefined): Promise<AgentEvent | undefined> {
    const sent = lastSent;
    if (!usage || !sent || usage.inputTokens <= 0) return undefined;
    reported = { sent, tokens: usage.inputTokens };
    const bound = historyBound(sent);
    const plausible = usage.inputTokens >= bound / PLAUSIBLE_BYTES_PER_TOKEN;
    counted = plausible ? { sent, tokens: usage.inputTokens, toolBytes: lastToolBytes } : undefined;
    // Small prompts: nothing to learn and nothing to warn about; a plausible count: nothing truncated. No tokenizer to load.
    if (bound < TRUNCATION_CHECK_MIN_TOKENS || warnedTruncation || plausible) return undefined;
    await learnRatio(signal);
    const estimated = await exactCount(sent, signal);
    if (signal?.aborted || usage.inputTokens / estimated >= 0.5 || estimated < TRUNCATION_CHECK_MIN_TOKENS) return undefined;
    warnedTruncation = true;
    return {
      type: 'context_warning',
      turn,
      message:
        `The server counted ${format(usage.inputTokens)} prompt tokens for a request of about ${format(estimated)}: it is probably ` +
        'cutting the prompt to a smaller context (Ollama does this at its default context size). Start it with a larger one ' +
        "(OLLAMA_CONTEXT_LENGTH, or num_ctx) and set the agent's context window to match.",
      estimatedTokens: estimated,
      reportedTokens: usage.inputTokens,
      setting: 'contextWindow',
    };
  }

  const beforeSummary = (trigger: 'auto' | 'manual', focus?: string) => (options.beforeCompact ? { beforeSummary: () => options.beforeCompact!(trigger, focus) } : {});
  const compactAs = (trigger: 'auto' | 'manual', messages: Message[], call: Parameters<ContextPolicy['compact']>[1]) => {
    const s = settings(call.model);
    return compactHistory(messages, {
      ...beforeSummary(trigger, call.focus),
      provider: options.provider,
      model: call.model,
      keepRecentTokens: s.keepRecentTokens,
      maxRequestTokens: s.inputBudget,
      summaryMaxTokens: s.summaryMaxTokens,
      store,
      ...(call.signal ? { signal: call.signal } : {}),
      ...(call.turn !== undefined ? { turn: call.turn } : {}),
      ...(call.focus ? { focus: call.focus } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
    });
  };

  const prepareMessages: Prepare = async (messages, context) => {
    const s = settings(context.model);
    const events: AgentEvent[] = [];
    const warning = await checkReportedUsage(context.usage, context.turn, context.signal);
    if (warning) events.push(warning);
    const cold = lastRequestAt !== undefined && now() - lastRequestAt > cacheTtlMs;
    let out = await cap(messages, s, context.turn, events);
    out = await stubWhenItPays(out, s, context.model, context.turn, events, context.signal);
    // Stubbing the window forced that still leaves the prompt near the window (stubs and turns add up):
    // compact now, down to its own low-water mark, rather than stub again next round.
    const forced = events.some((event) => event.type === 'context_rewrite' && event.reason === 'window');
    const limit = forced ? Math.floor(s.compactAt * WINDOW_LOW_WATER) : s.compactAt;
    if ((await estimate(out, limit, context.signal)) > limit && !context.signal?.aborted) {
      const result = await compactAs('auto', out, { model: context.model, signal: context.signal, turn: context.turn });
      if (result.event) events.push(result.event);
      // A compaction is a rewrite point too: what was carried is gone.
      if (result.event) carried = 0;
      out = result.messages;
      const after = await estimate(out, s.inputBudget, context.signal);
      if (after > s.inputBudget) {
        // Say what happened: a compaction that left it too large, or nothing there was to compact.
        const what = result.event ? `still about ${format(after)} tokens after compaction` : `about ${format(after)} tokens and nothing earlier could be compacted`;
        events.push({ type: 'context_warning', turn: context.turn, message: `The prompt is ${what}, over the ${format(s.inputBudget)} budget: the system prompt or the latest request is too large.`, estimatedTokens: after });
      }
    }
    // A new task, a rewrite point or an expired cache: where tools that came or went may join the offer (the loop holds it).
    const holdTools = context.turn === 1 || cold || events.some((event) => event.type === 'context_rewrite' || event.type === 'compaction');
    rememberSent(out);
    return { messages: out, events, ...(holdTools ? { holdTools } : {}) };
  };

  const onContextOverflow: Overflow = async (messages, context) => {
    // "maximum context length is 8192 tokens": believe the server from now on.
    const limit = Number(/maximum context length is (\d+)/i.exec(context.error.message)?.[1] ?? NaN);
    const learned = Number.isInteger(limit) && limit >= 1024 && limit < settings(context.model).window ? limit : undefined;
    if (learned) learnedWindow = learned;
    const s = settings(context.model);
    const events: AgentEvent[] = [];
    let out = await cap(messages, s, context.turn, events);
    const batch = await planStubBatch(out, s, batchMemo, context.signal);
    if (batch) out = await rewrite(batch, 'overflow', context.turn, events);
    const result = await compactHistory(out, {
      ...beforeSummary('auto'),
      provider: options.provider,
      model: context.model,
      // The server's window is smaller than we thought: keep only the newest turn whole.
      keepRecentTokens: 0,
      maxRequestTokens: s.inputBudget,
      summaryMaxTokens: s.summaryMaxTokens,
      store,
      signal: context.signal,
      turn: context.turn,
      ...(options.retry ? { retry: options.retry } : {}),
    });
    const warning: AgentEvent = {
      type: 'context_warning',
      turn: context.turn,
      message: `The provider rejected the prompt as too long; compacting and retrying once${learned ? `, with a ${format(learned)}-token window from now on` : ''}. (${context.error.message})`,
    };
    // The settings (caps, stubs) follow the window: a session replaying the history needs it.
    if (learned) warning.contextWindow = learned;
    events.unshift(warning);
    if (result.event) events.push(result.event);
    rememberSent(result.messages);
    return { messages: result.messages, events, holdTools: true };
  };

  return {
    prepareMessages,
    onContextOverflow,
    compact: (messages, call) => compactAs('manual', messages, call),
    settings,
    store,
    contextForAgent: (tools) => {
      const { rewriteAt: _recorded, tools: _schemas, offerReadOutput: _offer, ...shared } = options;
      return agentPolicy({ ...shared, registry: tools }, store);
    },
  };
}
