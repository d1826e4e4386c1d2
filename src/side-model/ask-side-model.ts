import { errorText } from '../contracts/error-text.js';
import { addUsage, emptyUsage, type Message, type Usage } from '../contracts/messages.js';
import type { ModelRequest, Provider } from '../contracts/provider.js';
import { buildSideRequest, encodeItems, requestDigest, type SideItem, type SideRequestSpec } from './side-request.js';
import { strictJsonObject } from './strict-json.js';

/** A model asked on the side (a permission reviewer, a goal's judge): any provider, any model. */
export interface SideModel {
  provider: Provider;
  model: string;
  /** US dollars for a request's usage at this model's price; undefined when the price is unknown. */
  cost?(usage: Usage): number | undefined;
  /** How long one request may take before it counts as no answer (default 90 s). */
  timeoutMs?: number;
}

/** One request and what came back: what the session file keeps and replay sends again. */
export interface SideExchange {
  request: ModelRequest;
  digest: string;
  /** The reply's text, when one came. */
  reply?: string;
  /** Why no usable reply came (timeout, provider error). */
  error?: string;
}

/**
 * What a parser makes of one reply: the answer, a reason it is unacceptable, or (at most
 * `rounds - 1` times) more items to show the model before it answers, e.g. the output of
 * read-only checks it asked for.
 */
export type SideParse<T> = { ok: true; value: T } | { ok: false; error: string } | { more: SideItem[] };

export type SideOutcome<T> =
  | { ok: true; value: T; exchanges: SideExchange[]; usage: Usage; cost?: number }
  | { ok: false; reason: string; exchanges: SideExchange[]; usage: Usage; cost?: number };

export interface SideAskOptions {
  signal?: AbortSignal;
  /** Requests allowed in all (default 2: one round of `more`). */
  rounds?: number;
}

/**
 * Asks a side model for a strict JSON answer, fail-closed: no reply, a reply that is not one JSON
 * object, one the parser refuses, a timeout or a provider error all come back as `ok: false` with
 * the reason, never as an answer. Every request and reply is returned for the record.
 */
export async function askSideModel<T>(side: SideModel, spec: SideRequestSpec, parse: (value: Record<string, unknown>) => SideParse<T> | Promise<SideParse<T>>, options: SideAskOptions = {}): Promise<SideOutcome<T>> {
  const exchanges: SideExchange[] = [];
  let usage = emptyUsage();
  let cost: number | undefined;
  const spent = () => ({ exchanges, usage, ...(cost !== undefined ? { cost } : {}) });
  let request = buildSideRequest(side.model, spec);
  const rounds = options.rounds ?? 2;
  for (let round = 1; ; round++) {
    const exchange: SideExchange = { request, digest: requestDigest(request) };
    exchanges.push(exchange);
    const answer = await sendOnce(side, request, options.signal);
    if (answer.usage) {
      usage = addUsage(usage, answer.usage);
      const more = side.cost?.(answer.usage);
      if (more !== undefined) cost = (cost ?? 0) + more;
    }
    if (!answer.ok) {
      exchange.error = answer.error;
      return { ok: false, reason: answer.error, ...spent() };
    }
    exchange.reply = answer.text;
    const json = strictJsonObject(answer.text);
    if (!json.ok) return { ok: false, reason: `malformed answer: ${json.error}`, ...spent() };
    const parsed = await parse(json.value);
    if ('more' in parsed) {
      if (round >= rounds) return { ok: false, reason: 'no verdict: the model asked for more after its last round', ...spent() };
      request = followUp(request, answer.text, parsed.more);
      continue;
    }
    if (!parsed.ok) return { ok: false, reason: `malformed answer: ${parsed.error}`, ...spent() };
    return { ok: true, value: parsed.value, ...spent() };
  }
}

/** The same conversation, plus the model's reply and the new items: request N+1 is request N plus what is new. */
function followUp(request: ModelRequest, reply: string, items: SideItem[]): ModelRequest {
  const messages: Message[] = [...request.messages, { role: 'assistant', content: reply, toolCalls: [] }, { role: 'user', content: encodeItems(items) }];
  return { ...request, messages };
}

type Sent = { ok: true; text: string; usage?: Usage } | { ok: false; error: string; usage?: Usage };

async function sendOnce(side: SideModel, request: ModelRequest, outer: AbortSignal | undefined): Promise<Sent> {
  const timeoutMs = side.timeoutMs ?? 90_000;
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  outer?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Sent>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ ok: false, error: `no answer within ${Math.round(timeoutMs / 100) / 10} s` });
    }, timeoutMs);
    controller.signal.addEventListener('abort', () => resolve({ ok: false, error: outer?.aborted ? 'the run was cancelled' : `no answer within ${Math.round(timeoutMs / 100) / 10} s` }), { once: true });
  });
  try {
    return await Promise.race([collect(side.provider, request, controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}

async function collect(provider: Provider, request: ModelRequest, signal: AbortSignal): Promise<Sent> {
  try {
    for await (const event of provider.stream(request, signal)) {
      if (event.type !== 'response') continue;
      const { message, usage } = event.response;
      if (message.toolCalls.length > 0) return { ok: false, error: 'malformed answer: the model called a tool instead of answering', ...(usage ? { usage } : {}) };
      return { ok: true, text: message.content, ...(usage ? { usage } : {}) };
    }
    return { ok: false, error: 'no verdict: the provider ended the reply without a response' };
  } catch (error) {
    return { ok: false, error: `provider error: ${errorText(error)}` };
  }
}
