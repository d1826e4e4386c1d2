import type { Content, FunctionDeclaration, Part } from '@google/genai';
import { canonicalJson } from '../../contracts/canonical-json.js';
import type { AssistantMessage, ImageRef, Message, ProviderData } from '../../contracts/messages.js';
import type { ToolSchema } from '../../contracts/provider.js';
import type { ToolWireMap } from '../shared/tool-ids.js';
import { cleanSchemaForGemini } from './clean-schema.js';
import { parseJson } from '../../contracts/bounded-json.js';

export interface ConvertOptions {
  /** Provider name and model: stored parts are replayed only to the same pair. */
  provider: string;
  model: string;
  wire: ToolWireMap;
}

export interface GeminiRequestParts {
  contents: Content[];
  systemInstruction?: string;
}

const REQUIRES_SIGNATURES = /^(?:models\/)?gemini-3/;
export const FOREIGN_CALL_SIGNATURE = 'skip_thought_signature_validator';

/** How a call went out on the wire, so its result can be matched to it (Gemini matches by order and name). */
interface SentCall {
  name: string;
  id?: string;
}

/**
 * Neutral history to Gemini `contents`. System text becomes `systemInstruction`; tool results
 * become `functionResponse` parts whose `response` is always an object (`{output}` or
 * `{error}`), with the name (and id, when Gemini gave one) of the call they answer. A model
 * turn from the same provider and model is replayed from the parts it arrived as, so thought
 * parts and `thoughtSignature`s go back on the parts they came with.
 */
export function toGeminiContents(messages: Message[], options: ConvertOptions): GeminiRequestParts {
  const system: string[] = [];
  const contents: Content[] = [];
  let sent = new Map<string, SentCall>();
  const push = (role: 'user' | 'model', parts: Part[]) => {
    if (!parts.length) return;
    const last = contents[contents.length - 1];
    // Consecutive turns of one role are merged: Gemini wants user and model to alternate.
    if (last && last.role === role) last.parts!.push(...parts);
    else contents.push({ role, parts });
  };

  let pendingImages: Part[] = [];
  const flushImages = () => {
    if (pendingImages.length) push('user', pendingImages);
    pendingImages = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') flushImages();
    switch (message.role) {
      case 'system':
        system.push(message.content);
        break;
      case 'user':
        push('user', [...(message.content || !message.images?.length ? [{ text: message.content }] : []), ...(message.images ?? []).map(imagePart)]);
        break;
      case 'assistant': {
        const { parts, calls } = modelParts(message, options);
        sent = calls;
        push('model', parts);
        break;
      }
      case 'tool': {
        const call = sent.get(message.toolCallId);
        const functionResponse: NonNullable<Part['functionResponse']> = {
          name: call?.name ?? options.wire.name(message.name),
          response: message.isError ? { error: message.content } : { output: message.content },
        };
        if (call?.id) functionResponse.id = call.id;
        push('user', [{ functionResponse }]);
        // Images a tool returned follow its response as inline parts of the same user turn.
        if (message.images?.length) pendingImages.push(...message.images.map(imagePart));
        break;
      }
    }
  }
  flushImages();
  const result: GeminiRequestParts = { contents };
  if (system.length) result.systemInstruction = system.join('\n\n');
  return result;
}

/** An image as Gemini takes it inline: base64 data with its MIME type. */
export function imagePart(image: ImageRef): Part {
  return { inlineData: { mimeType: image.mediaType, data: image.data } };
}

function modelParts(message: AssistantMessage, options: ConvertOptions): { parts: Part[]; calls: Map<string, SentCall> } {
  const calls = new Map<string, SentCall>();
  const stored = storedParts(message, options);
  if (stored) {
    let n = 0;
    for (const part of stored) {
      if (!part.functionCall) continue;
      const call = message.toolCalls[n++]!;
      calls.set(call.id, { name: part.functionCall.name!, ...(part.functionCall.id ? { id: part.functionCall.id } : {}) });
    }
    return { parts: stored, calls };
  }
  const parts: Part[] = [];
  if (message.content) parts.push({ text: message.content });
  for (const call of message.toolCalls) {
    const name = options.wire.name(call.name);
    const part: Part = { functionCall: { name, args: argsObject(call.arguments) } };
    // Gemini 3 rejects a call turn without a signature; for calls it did not make (another
    // model's history), Google documents this placeholder as the way to say so.
    if (calls.size === 0 && REQUIRES_SIGNATURES.test(options.model)) part.thoughtSignature = FOREIGN_CALL_SIGNATURE;
    parts.push(part);
    calls.set(call.id, { name });
  }
  return { parts, calls };
}

/** The parts the reply arrived as, when they are ours to replay and still match the message. */
function storedParts(message: AssistantMessage, options: ConvertOptions): Part[] | undefined {
  const data = message.providerData;
  if (!data || !isOwnParts(data, options)) return undefined;
  const parts = data.parts as Part[];
  const wireCalls = parts.filter((part) => part.functionCall);
  const text = parts.filter((part) => typeof part.text === 'string' && !part.thought).map((part) => part.text).join('');
  // A history rewritten since (compaction, edits) no longer matches its parts: rebuild instead.
  if (text !== message.content || wireCalls.length !== message.toolCalls.length) return undefined;
  const same = wireCalls.every((part, i) => {
    const call = message.toolCalls[i]!;
    return part.functionCall!.name === options.wire.name(call.name) && canonicalJson(part.functionCall!.args ?? {}) === canonicalJson(argsObject(call.arguments));
  });
  return same ? parts : undefined;
}

/** Parts this provider and model sent (thoughts, signatures): the only ones it may send back. */
export function isOwnParts(data: ProviderData, options: { provider: string; model: string }): boolean {
  return data.provider === options.provider && data.model === options.model && Array.isArray(data.parts);
}

/** Gemini wants `args` as an object; anything else (a malformed reply from another model) is wrapped. */
function argsObject(raw: string): Record<string, unknown> {
  const parsed = parseJson(raw || '{}');
  if (!parsed.ok) return { raw };
  const { value } = parsed;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}

export function toGeminiTools(tools: ToolSchema[], wire: ToolWireMap): FunctionDeclaration[] {
  return tools.map((tool) => {
    const declaration: FunctionDeclaration = { name: wire.name(tool.name), description: tool.description };
    const parameters = cleanSchemaForGemini(tool.parameters);
    if (parameters) declaration.parameters = parameters as FunctionDeclaration['parameters'];
    return declaration;
  });
}
