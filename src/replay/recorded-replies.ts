import type { ModelRequest, Provider, ProviderEvent } from '../contracts/provider.js';
import type { SideItem } from '../side-model/side-request.js';

/** A side model's request and reply as a session file keeps them (a reviewer's, a goal judge's). */
export type RecordedExchange = { request: ModelRequest; digest: string; reply?: string; error?: string };

/** Answers each request with the recorded reply (or error) at its position. */
export class RecordedReplies implements Provider {
  readonly name = 'recorded';
  private position = 0;
  constructor(private readonly exchanges: RecordedExchange[]) {}

  async *stream(): AsyncGenerator<ProviderEvent> {
    const exchange = this.exchanges[this.position++];
    if (!exchange || exchange.reply === undefined) throw new Error(exchange?.error ?? 'no recorded reply');
    yield { type: 'response', response: { message: { role: 'assistant', content: exchange.reply, toolCalls: [] }, finishReason: 'stop' } };
  }
}

/** The JSON items of a request's user message: the first one (1), or the last (-1). */
export function itemsOf(request: ModelRequest, which: 1 | -1): SideItem[] {
  const users = request.messages.filter((message) => message.role === 'user');
  const message = which === 1 ? users[0] : users.at(-1);
  if (!message) return [];
  return message.content.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as SideItem];
    } catch {
      return [];
    }
  });
}
