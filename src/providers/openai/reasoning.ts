import type { AssistantMessage, ProviderData } from '../../contracts/messages.js';

/**
 * Where compatible servers put reasoning text: DeepSeek, Kimi and GLM say `reasoning_content`,
 * OpenRouter, Ollama and newer vLLM say `reasoning`. It is kept under the name it came in, and
 * sent back under that name.
 */
export type ReasoningField = 'reasoning_content' | 'reasoning';

/** The reasoning in a delta or a message, and which field carried it. */
export function readReasoning(source: Record<string, unknown>): { text: string; field: ReasoningField } | undefined {
  if (typeof source.reasoning_content === 'string' && source.reasoning_content) return { text: source.reasoning_content, field: 'reasoning_content' };
  if (typeof source.reasoning === 'string' && source.reasoning) return { text: source.reasoning, field: 'reasoning' };
  return undefined;
}

export function reasoningData(provider: string, model: string, text: string, field: ReasoningField): ProviderData {
  return { provider, model, [field]: text };
}

/**
 * The field to add to an assistant message on the wire, or undefined. Only to the provider and
 * model that produced it, and only when that endpoint wants it back (the preset's replayReasoning):
 * another model would read a stranger's thoughts, and some endpoints reject unknown fields.
 */
export function replayedReasoning(message: AssistantMessage, target: { provider: string; model: string; replayReasoning: boolean }): Partial<Record<ReasoningField, string>> | undefined {
  const data = message.providerData;
  if (!target.replayReasoning || !data || !isOwnReasoning(data, target)) return undefined;
  if (typeof data.reasoning_content === 'string') return { reasoning_content: data.reasoning_content };
  if (typeof data.reasoning === 'string') return { reasoning: data.reasoning };
  return undefined;
}

/** Reasoning text this provider and model made on this wire: the only kind it may send back. */
export function isOwnReasoning(data: ProviderData, target: { provider: string; model: string }): boolean {
  return data.provider === target.provider && data.model === target.model && (typeof data.reasoning_content === 'string' || typeof data.reasoning === 'string');
}
