import { createHash } from 'node:crypto';
import { canonicalJson } from '../contracts/canonical-json.js';
import { PrefixMap } from '../contracts/prefix-memo.js';
import type { Message } from '../contracts/messages.js';
import type { ModelRequest, ToolSchema } from '../contracts/provider.js';
import { redactedJson } from './redact.js';
import { dropImageBytes } from './session-images.js';

/** A request's settings other than its messages and tools. */
export interface RequestParams {
  model: string;
  temperature: number;
  maxTokens?: number;
  protocolErrorLimit?: number;
}

/**
 * One model request the loop sent, stored as a change to an earlier one so the file grows with the
 * conversation, not with its square: the request is the base's first `keep` messages followed by
 * `append`, with the base's tools and params unless this record gives them. `digest` identifies the
 * whole request (as stored, secrets redacted) so a reader can check what it rebuilt; see
 * requestDigest. No `base`: the request starts from nothing (the first of a run).
 */
export interface RequestRecord {
  type: 'request';
  digest: string;
  base?: string;
  keep: number;
  append: Message[];
  tools?: ToolSchema[];
  params?: RequestParams;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Hashes of requests, kept per message and per prefix so a request costs only what is new in it.
 * A digest is `chain:` + sha256(params, tools, c(n)), where c(0) = '' and c(k) = sha256(c(k-1) +
 * sha256(canonical JSON of message k)): a request that extends an earlier one extends its chain.
 * Files written before (`sha256:` + sha256 of the whole request's canonical JSON) still verify.
 */
export class RequestHasher {
  private readonly texts = new CanonicalTexts();
  private readonly messageHashes = new WeakMap<object, string>();
  private tools: { list: readonly object[]; hash: string } | undefined;

  /** c(k) for every k, from a known chain over a shared prefix of `keep` messages. */
  chain(messages: readonly Message[], from: { chain: readonly string[]; keep: number } = { chain: [''], keep: 0 }): string[] {
    const chain = from.chain.slice(0, from.keep + 1);
    for (let k = from.keep; k < messages.length; k++) chain.push(sha256(chain[k]! + this.messageHash(messages[k]!)));
    return chain;
  }

  digest(request: ModelRequest, chain: readonly string[]): string {
    return `chain:${sha256(`${canonicalJson(requestParams(request))}\n${this.toolsHash(request.tools)}\n${chain[request.messages.length]!}`)}`;
  }

  /** Whether two messages have the same canonical JSON (the same object: yes, without looking). */
  same(a: object, b: object): boolean {
    return a === b || this.texts.of(a) === this.texts.of(b);
  }

  /** The digest of the older kind, for files written before chained digests. */
  wholeDigest(request: ModelRequest): string {
    return `sha256:${sha256(this.texts.request(request))}`;
  }

  private messageHash(message: object): string {
    let hash = this.messageHashes.get(message);
    if (hash === undefined) {
      hash = sha256(this.texts.of(message));
      this.messageHashes.set(message, hash);
    }
    return hash;
  }

  private toolsHash(tools: readonly object[]): string {
    const known = this.tools;
    if (known && known.list.length === tools.length && known.list.every((tool, i) => tool === tools[i])) return known.hash;
    const hash = sha256(`[${tools.map((tool) => this.texts.of(tool)).join(',')}]`);
    this.tools = { list: [...tools], hash };
    return hash;
  }
}

/** The digest a request record carries for this request (see RequestHasher). */
export function requestDigest(request: ModelRequest, hasher: RequestHasher = new RequestHasher()): string {
  return hasher.digest(request, hasher.chain(request.messages));
}

/**
 * Canonical JSON of requests, each message's and tool schema's text kept per object: the loop sends
 * the same message objects again in every later request. Same text as canonicalJson(request).
 */
export class CanonicalTexts {
  private readonly texts = new WeakMap<object, string>();

  of(value: object): string {
    let text = this.texts.get(value);
    if (text === undefined) {
      text = canonicalJson(value);
      this.texts.set(value, text);
    }
    return text;
  }

  request(request: ModelRequest): string {
    const parts = Object.keys(request)
      .sort()
      .flatMap((key) => {
        const value = (request as unknown as Record<string, unknown>)[key];
        if (value === undefined) return [];
        const text = key === 'messages' || key === 'tools' ? `[${(value as object[]).map((item) => this.of(item)).join(',')}]` : canonicalJson(value);
        return [`${JSON.stringify(key)}:${text}`];
      });
    return `{${parts.join(',')}}`;
  }
}

export function requestParams(request: ModelRequest): RequestParams {
  return {
    model: request.model,
    temperature: request.temperature,
    ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
    ...(request.protocolErrorLimit !== undefined ? { protocolErrorLimit: request.protocolErrorLimit } : {}),
  };
}

interface Sent {
  digest: string;
  messages: Message[];
  chain: string[];
  tools: ToolSchema[];
  params: string;
}

/** How many recent requests a new one may be based on: the loop's last, and a compaction summary's neighbour. */
const BASES = 3;

/**
 * The writer's side: turns each request into the smallest record against the recent request it
 * shares the longest message prefix with. A summary request (compaction) shares little with the
 * turn requests around it, so keeping a few lets the next turn build on the turn before it.
 * Messages are redacted, serialised and hashed once each (the loop sends the same objects again),
 * so a round costs what it added, not the whole history.
 */
export class RequestLog {
  private readonly recent: Sent[] = [];
  private readonly hasher = new RequestHasher();
  private readonly redacted = new WeakMap<object, object>();
  private readonly copies = new PrefixMap<Message, Message>((message) => this.redactedCopy(message));

  constructor(private readonly redact: (text: string) => string = (text) => text) {}

  record(original: ModelRequest): RequestRecord {
    const request: ModelRequest = { ...original, messages: this.copies.map(original.messages), tools: original.tools.map((t) => this.redactedCopy(t)) };
    let best: { base: Sent; keep: number } | undefined;
    for (const base of this.recent) {
      let keep = 0;
      while (keep < base.messages.length && keep < request.messages.length && this.hasher.same(base.messages[keep]!, request.messages[keep]!)) keep++;
      if (!best || keep > best.keep) best = { base, keep };
    }
    const chain = this.hasher.chain(request.messages, best ? { chain: best.base.chain, keep: best.keep } : undefined);
    const sent: Sent = { digest: this.hasher.digest(request, chain), messages: request.messages, chain, tools: request.tools, params: canonicalJson(requestParams(request)) };
    this.recent.unshift(sent);
    this.recent.length = Math.min(this.recent.length, BASES);
    const base = best?.base;
    const sameTools = base !== undefined && base.tools.length === sent.tools.length && base.tools.every((tool, i) => this.hasher.same(tool, sent.tools[i]!));
    return {
      type: 'request',
      digest: sent.digest,
      ...(base ? { base: base.digest } : {}),
      keep: best?.keep ?? 0,
      append: request.messages.slice(best?.keep ?? 0),
      ...(sameTools ? {} : { tools: request.tools }),
      ...(base?.params === sent.params ? {} : { params: requestParams(request) }),
    };
  }

  private redactedCopy<T extends object>(value: T): T {
    let copy = this.redacted.get(value);
    if (!copy) {
      copy = JSON.parse(redactedJson(value, this.redact, dropImageBytes)) as object;
      this.redacted.set(value, copy);
    }
    return copy as T;
  }
}

export interface RebuiltRequest {
  request: ModelRequest;
  digest: string;
  /** Index of the record in the file's records. */
  index: number;
}

/** Chains of the most recent rebuilt requests, which later records build on; older ones are recomputed. */
const KEPT_CHAINS = 8;

/**
 * The reader's side: every `request` record rebuilt into the whole request, in file order. A record
 * whose base is unknown or whose rebuild does not match its digest is reported and left out.
 */
export function rebuildRequests(
  records: Array<{ type: string; [key: string]: unknown }>,
  /** `verify: false` trusts each record's digest instead of checking it: for viewers, not replay. */
  options: { verify?: boolean } = {},
): { requests: RebuiltRequest[]; warnings: string[] } {
  const byDigest = new Map<string, ModelRequest>();
  const chains = new Map<string, string[]>();
  const hasher = new RequestHasher();
  const requests: RebuiltRequest[] = [];
  const warnings: string[] = [];
  const chainOf = (digest: string, request: ModelRequest) => chains.get(digest) ?? hasher.chain(request.messages);
  records.forEach((raw, index) => {
    if (raw.type !== 'request' || 'agent' in raw) return;
    const record = raw as unknown as RequestRecord;
    const base = record.base === undefined ? undefined : byDigest.get(record.base);
    if (record.base !== undefined && !base) {
      warnings.push(`record ${index + 1}: request based on ${record.base.slice(0, 19)}…, which is not in the file; skipped.`);
      return;
    }
    const params = record.params ?? (base ? requestParams(base) : undefined);
    const tools = record.tools ?? base?.tools;
    if (!params || !tools || !Array.isArray(record.append)) {
      warnings.push(`record ${index + 1}: request without its tools or parameters; skipped.`);
      return;
    }
    const request: ModelRequest = { ...params, messages: [...(base?.messages.slice(0, record.keep) ?? []), ...record.append], tools };
    let digest = record.digest;
    if (options.verify !== false && String(record.digest).startsWith('sha256:')) {
      digest = hasher.wholeDigest(request);
    } else if (options.verify !== false) {
      const chain = hasher.chain(request.messages, base && record.base ? { chain: chainOf(record.base, base), keep: Math.min(record.keep, base.messages.length) } : undefined);
      digest = hasher.digest(request, chain);
      chains.set(digest, chain);
      if (chains.size > KEPT_CHAINS) chains.delete(chains.keys().next().value!);
    }
    if (digest !== record.digest) {
      warnings.push(`record ${index + 1}: the rebuilt request does not match its digest; skipped.`);
      return;
    }
    byDigest.set(digest, request);
    requests.push({ request, digest, index });
  });
  return { requests, warnings };
}
