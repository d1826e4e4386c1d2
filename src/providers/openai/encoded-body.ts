import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { PrefixMap } from '../../contracts/prefix-memo.js';

/**
 * A Chat Completions body as JSON text, each message encoded once. Every round sends the whole
 * history again, and it is byte-identical up to the new messages (WireMessages hands back the same
 * converted objects), so only those are encoded; the rest is copied. The text is what
 * `JSON.stringify(body)` — the SDK's own encoding — gives, byte for byte.
 */
export class EncodedBodies {
  private readonly messages = new PrefixMap<ChatCompletionMessageParam, string>((message) => JSON.stringify(message));

  encode(body: { messages: readonly ChatCompletionMessageParam[] }): string {
    // A number where the messages go: no string value can hold `"messages":0` (a quote inside one is escaped),
    // and `messages` is the body's second key, before any object that could have a key of that name.
    const frame = JSON.stringify({ ...body, messages: 0 });
    const at = frame.indexOf(MARK);
    if (at === -1) return JSON.stringify(body);
    const encoded = this.messages.map(body.messages);
    return `${frame.slice(0, at)}"messages":[${encoded.join(',')}]${frame.slice(at + MARK.length)}`;
  }
}

const MARK = '"messages":0';
