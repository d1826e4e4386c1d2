import { createHash } from 'node:crypto';
import { canonicalJson } from '../contracts/canonical-json.js';
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
 * `append`, with the base's tools and params unless this record gives them. `digest` is the sha256
 * of the whole request's canonical JSON (as stored, secrets redacted), so a reader can check what
 * it rebuilt. No `base`: the request starts from nothing (the first of a run).
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

export function requestDigest(request: ModelRequest, texts: CanonicalTexts = new CanonicalTexts()): string {
  return `sha256:${createHash('sha256').update(texts.request(request)).digest('hex')}`;
}

/**
 * Canonical JSON of requests, each message's and tool schema's text kept per object: the loop sends
 * the same message objects again in every later request, so a request costs only its new messages
 * rather than the whole history each time. Same text as canonicalJson(request).
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
  messages: string[];
  tools: string;
  params: string;
}

/** How many recent requests a new one may be based on: the loop's last, and a compaction summary's neighbour. */
const BASES = 3;

/**
 * The writer's side: turns each request into the smallest record against the recent request it
 * shares the longest message prefix with. A summary request (compaction) shares little with the
 * turn requests around it, so keeping a few lets the next turn build on the turn before it.
 * Messages are redacted and serialised once each (the loop sends the same objects again).
 */
export class RequestLog {
  private readonly recent: Sent[] = [];
  private readonly texts = new CanonicalTexts();
  private readonly redacted = new WeakMap<object, object>();

  constructor(private readonly redact: (text: string) => string = (text) => text) {}

  record(original: ModelRequest): RequestRecord {
    const request: ModelRequest = { ...original, messages: original.messages.map((m) => this.redactedCopy(m)), tools: original.tools.map((t) => this.redactedCopy(t)) };
    const sent: Sent = {
      digest: requestDigest(request, this.texts),
      messages: request.messages.map((m) => this.texts.of(m)),
      tools: `[${request.tools.map((t) => this.texts.of(t)).join(',')}]`,
      params: canonicalJson(requestParams(request)),
    };
    let best: { base: Sent; keep: number } | undefined;
    for (const base of this.recent) {
      let keep = 0;
      while (keep < base.messages.length && keep < sent.messages.length && base.messages[keep] === sent.messages[keep]) keep++;
      if (!best || keep > best.keep) best = { base, keep };
    }
    this.recent.unshift(sent);
    this.recent.length = Math.min(this.recent.length, BASES);
    const base = best?.base;
    return {
      type: 'request',
      digest: sent.digest,
      ...(base ? { base: base.digest } : {}),
      keep: best?.keep ?? 0,
      append: request.messages.slice(best?.keep ?? 0),
      ...(base?.tools === sent.tools ? {} : { tools: request.tools }),
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

/**
 * The reader's side: every `request` record rebuilt into the whole request, in file order. A record
 * whose base is unknown or whose rebuild does not match its digest is reported and left out.
 */
export function rebuildRequests(
  records: Array<{ type: string; [key: string]: unknown }>,
  /** `verify: false` trusts each record's digest instead of hashing every whole request (quadratic in a long session): for viewers, not replay. */
  options: { verify?: boolean } = {},
): { requests: RebuiltRequest[]; warnings: string[] } {
  const byDigest = new Map<string, ModelRequest>();
  const texts = new CanonicalTexts();
  const requests: RebuiltRequest[] = [];
  const warnings: string[] = [];
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
    const digest = options.verify === false ? record.digest : requestDigest(request, texts);
    if (digest !== record.digest) {
      warnings.push(`record ${index + 1}: the rebuilt request does not match its digest; skipped.`);
      return;
    }
    byDigest.set(digest, request);
    requests.push({ request, digest, index });
  });
  return { requests, warnings };
}
