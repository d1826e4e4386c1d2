import type { GenerateContentResponse, GenerateContentResponseUsageMetadata, GroundingMetadata, Part } from '@google/genai';
import type { Citation, Usage } from '../../contracts/messages.js';
import type { FinishReason } from '../../contracts/provider.js';

/** What one chunk adds, for the provider to yield as it arrives. */
export type ChunkEvent =
  | { type: 'text'; text: string }
  | { type: 'thought'; text: string }
  /** A whole call: Gemini never splits one across chunks, but one chunk may hold several. */
  | { type: 'call'; position: number; name: string };

export interface WireCall {
  name: string;
  /** Gemini's own id, when it sent one (most models do not). */
  id?: string;
  args: Record<string, unknown>;
}

/**
 * Assembles a streamed Gemini reply. There is no `index` on calls and no end-of-stream marker:
 * each `functionCall` part is one complete call, and the chunk with a `finishReason` ends the
 * reply. `usageMetadata` repeats on chunks, cumulatively, so the last one counts.
 *
 * `parts` keeps the reply as it arrived, for replay: adjacent text parts of the same kind are
 * joined, but a part carrying a `thoughtSignature` closes its run, so the signature goes
 * back on the part it came with.
 */
export class GeminiReplyAccumulator {
  readonly parts: Part[] = [];
  readonly calls: WireCall[] = [];
  text = '';
  thoughts = '';
  finishReason: string | undefined;
  blockReason: string | undefined;
  /** Google Search grounding: the pages the reply rests on and the queries run (the last chunk's, which holds them all). */
  grounding: GroundingMetadata | undefined;
  private usageMetadata: GenerateContentResponseUsageMetadata | undefined;
  private open: Part | undefined;

  add(chunk: GenerateContentResponse): ChunkEvent[] {
    const events: ChunkEvent[] = [];
    if (chunk.usageMetadata) this.usageMetadata = chunk.usageMetadata;
    if (chunk.promptFeedback?.blockReason) this.blockReason = chunk.promptFeedback.blockReason;
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (part.functionCall) {
        this.open = undefined;
        const call: WireCall = { name: part.functionCall.name ?? '', args: part.functionCall.args ?? {} };
        if (part.functionCall.id) call.id = part.functionCall.id;
        this.parts.push({ ...part });
        events.push({ type: 'call', position: this.calls.push(call) - 1, name: call.name });
      } else if (typeof part.text === 'string') {
        this.addText(part);
        if (part.text) events.push({ type: part.thought ? 'thought' : 'text', text: part.text });
      } else if (part.thoughtSignature) {
        // A signature alone (some streams end with one in an empty part): it belongs to the part before.
        this.addText({ text: '', thoughtSignature: part.thoughtSignature, ...(part.thought ? { thought: true } : {}) });
      }
    }
    if (candidate?.groundingMetadata) this.grounding = candidate.groundingMetadata;
    if (candidate?.finishReason) this.finishReason = candidate.finishReason;
    return events;
  }

  private addText(part: Part): void {
    const text = part.text ?? '';
    if (part.thought) this.thoughts += text;
    else this.text += text;
    const open = this.open;
    if (open && !!open.thought === !!part.thought) {
      open.text = (open.text ?? '') + text;
      if (part.thoughtSignature) open.thoughtSignature = part.thoughtSignature;
    } else {
      const copy: Part = { text };
      if (part.thought) copy.thought = true;
      if (part.thoughtSignature) copy.thoughtSignature = part.thoughtSignature;
      this.parts.push(copy);
      this.open = copy;
    }
    if (part.thoughtSignature) this.open = undefined;
  }

  /** True when the parts hold something only a replay can give back (thoughts, signatures, Gemini's ids). */
  get needsReplay(): boolean {
    return this.parts.some((part) => part.thought || part.thoughtSignature || part.functionCall?.id);
  }

  /** The pages the grounding supports cite, each with the passage it supports, then any others it lists. */
  citations(): Citation[] {
    const chunks = this.grounding?.groundingChunks ?? [];
    const page = (index: number, citedText?: string): Citation[] => {
      const web = chunks[index]?.web;
      return web?.uri ? [{ url: web.uri, ...(web.title ? { title: web.title } : {}), ...(citedText ? { citedText } : {}) }] : [];
    };
    const supported = (this.grounding?.groundingSupports ?? []).flatMap((support) => (support.groundingChunkIndices ?? []).flatMap((index) => page(index, support.segment?.text)));
    return [...supported, ...chunks.flatMap((_, index) => page(index))];
  }

  /** Google searches run for this reply. */
  searches(): number {
    return this.grounding?.webSearchQueries?.length ?? 0;
  }

  /** The finish, normalised. Gemini says STOP even when the reply calls tools. */
  normalisedFinish(): FinishReason {
    const reason = this.finishReason ?? (this.blockReason ? 'SAFETY' : undefined);
    if (reason === 'MAX_TOKENS') return 'length';
    if (reason && CONTENT_FILTER.has(reason)) return 'content_filter';
    if (this.calls.length) return 'tool_calls';
    return reason === 'STOP' ? 'stop' : 'other';
  }

  usage(): Usage | undefined {
    return this.usageMetadata ? readUsage(this.usageMetadata) : undefined;
  }
}

const CONTENT_FILTER = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'LANGUAGE']);

/**
 * Gemini's counts to ours. `candidatesTokenCount` excludes thinking (`thoughtsTokenCount` is
 * billed as output on top of it), so output = candidates + thoughts, matching OpenAI's
 * `completion_tokens`, which includes reasoning. `promptTokenCount` already includes the cached
 * part; tokens of a built-in tool's prompt count as input.
 */
export function readUsage(raw: GenerateContentResponseUsageMetadata): Usage {
  const thoughts = raw.thoughtsTokenCount ?? 0;
  return {
    inputTokens: (raw.promptTokenCount ?? 0) + (raw.toolUsePromptTokenCount ?? 0),
    outputTokens: (raw.candidatesTokenCount ?? 0) + thoughts,
    cachedInputTokens: raw.cachedContentTokenCount ?? 0,
    cacheWriteTokens: 0,
    reasoningTokens: thoughts,
  };
}
