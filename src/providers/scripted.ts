import type { AssistantMessage, Usage } from '../contracts/messages.js';
import type { FinishReason, ModelRequest, Provider, ProviderEvent } from '../contracts/provider.js';
import { ProviderError } from '../contracts/provider-error.js';

/** One scripted model reply. Also the shape the test servers replay over the wire. */
export interface ScriptedReply {
  text?: string;
  reasoning?: string;
  toolCalls?: { id?: string; name: string; arguments: string | Record<string, unknown> }[];
  finishReason?: FinishReason;
  usage?: Partial<Usage>;
}

/** A step is a fixed reply, or a function of the request (to answer from earlier tool results). */
export type ScriptStep = ScriptedReply | ((request: ModelRequest) => ScriptedReply);

/**
 * Replays a script in-process. Strict: a request past the end of the script is an error, so a
 * test (or the offline demo) notices when the loop asks more than expected.
 */
export class ScriptedProvider implements Provider {
  readonly name = 'scripted';
  readonly requests: ModelRequest[] = [];
  private position = 0;

  constructor(private readonly script: ScriptStep[]) {}

  get remaining(): number {
    return this.script.length - this.position;
  }

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ProviderEvent> {
    if (signal?.aborted) throw new ProviderError('aborted', 'Request aborted.');
    this.requests.push(request);
    const step = this.script[this.position];
    if (!step) throw new ProviderError('bad_request', `The scripted model has no reply for request ${this.position + 1}.`);
    this.position++;
    const reply = typeof step === 'function' ? step(request) : step;
    if (reply.reasoning) yield { type: 'reasoning_delta', text: reply.reasoning };
    if (reply.text) yield { type: 'text_delta', text: reply.text };
    const message = scriptedMessage(reply, `scripted_${this.position}`);
    yield {
      type: 'response',
      response: {
        message,
        finishReason: reply.finishReason ?? (message.toolCalls.length ? 'tool_calls' : 'stop'),
        usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, ...reply.usage },
      },
    };
  }
}

function scriptedMessage(reply: ScriptedReply, idPrefix: string): AssistantMessage {
  const message: AssistantMessage = {
    role: 'assistant',
    content: reply.text ?? '',
    toolCalls: (reply.toolCalls ?? []).map((call, index) => ({
      id: call.id ?? `${idPrefix}_${index}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    })),
  };
  if (reply.reasoning) message.reasoning = reply.reasoning;
  return message;
}
