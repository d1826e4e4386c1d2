import type { AssistantMessage, Message, ProviderData, ToolMessage } from '../../contracts/messages.js';
import { protocolPrompt } from './protocol-prompt.js';
import type { ToolSchema } from '../../contracts/provider.js';
import { parseJson } from '../../contracts/bounded-json.js';

/** What the wrapper keeps on each assistant message it produced (inside providerData). */
export interface PromptJsonData {
  /** The reply's text exactly as the model wrote it; replayed as the assistant's turn. */
  raw: string;
}

export function promptJsonData(message: AssistantMessage): PromptJsonData | undefined {
  const data = message.providerData?.promptJson as PromptJsonData | undefined;
  return data && typeof data.raw === 'string' ? data : undefined;
}

export function withPromptJsonData(message: AssistantMessage, data: PromptJsonData, fallback: { provider: string; model: string }): AssistantMessage {
  const providerData: ProviderData = { ...(message.providerData ?? fallback), promptJson: data };
  return { ...message, providerData };
}

/**
 * The history as a model without native tools must see it: the tool contract appended to the
 * system prompt, each assistant turn as the text the model wrote, and tool results (consecutive
 * ones merged) as user messages. The inner provider never sees a tool call or a tool message.
 */
export function toPromptJsonHistory(messages: Message[], tools: ToolSchema[]): Message[] {
  const out: Message[] = [];
  let results: ToolMessage[] = [];
  const flush = () => {
    const images = results.flatMap((result) => result.images ?? []);
    if (results.length) out.push({ role: 'user', content: results.map(resultText).join('\n\n'), ...(images.length ? { images } : {}) });
    results = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      results.push(message);
      continue;
    }
    flush();
    if (message.role === 'assistant') {
      const { toolCalls: _calls, ...rest } = message;
      out.push({ ...rest, content: promptJsonData(message)?.raw ?? renderAssistant(message), toolCalls: [] });
    } else {
      out.push(message);
    }
  }
  flush();
  if (tools.length === 0) return out;
  const contract = protocolPrompt(tools);
  if (out[0]?.role === 'system') out[0] = { role: 'system', content: `${out[0].content}\n\n${contract}` };
  else out.unshift({ role: 'system', content: contract });
  return out;
}

function resultText(message: ToolMessage): string {
  const label = message.isError ? 'Error from' : 'Result of';
  return `${label} ${message.name} (call ${message.toolCallId}): ${message.content}`;
}

/** An assistant turn that came from elsewhere (a native run, a saved session), in protocol form. */
function renderAssistant(message: AssistantMessage): string {
  if (message.toolCalls.length === 0) return JSON.stringify({ answer: message.content });
  const calls = message.toolCalls.map((call) => ({ tool: call.name, arguments: parseOrKeep(call.arguments) }));
  return JSON.stringify(calls.length === 1 ? calls[0] : calls);
}

function parseOrKeep(raw: string): unknown {
  const parsed = parseJson(raw);
  return parsed.ok ? parsed.value : raw;
}
