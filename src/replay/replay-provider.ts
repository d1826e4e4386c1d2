import { ProviderError } from '../contracts/provider-error.js';
import type { ModelRequest, Provider, ProviderEvent } from '../contracts/provider.js';
import { redactedJson } from '../session/redact.js';
import { dropImageBytes } from '../session/session-images.js';
import { firstDifference, type Difference } from './first-difference.js';
import type { RecordedRun } from './recorded-run.js';

/** The first request the replay sent that is not the recorded one. */
export interface ReplayDifference extends Difference {
  /** Which request (1-based, a retry counted once) and the turn it was sent in. */
  request: number;
  turn: number;
}

/**
 * A provider that answers each request with the reply recorded for it, after comparing the request
 * (redacted like the file) with the recorded one. At the first difference it notes it, calls
 * `stop` and fails the request, so the loop ends there.
 */
export class ReplayProvider implements Provider {
  readonly name: string;
  sent = 0;
  difference: ReplayDifference | undefined;

  constructor(
    private readonly run: RecordedRun,
    private readonly redact: (text: string) => string,
    private readonly stop: () => void,
  ) {
    this.name = run.provider;
  }

  async *stream(request: ModelRequest): AsyncIterable<ProviderEvent> {
    const index = this.sent++;
    const recorded = this.run.exchanges[index];
    const turn = recorded?.turn ?? this.run.exchanges.at(-1)?.turn ?? 0;
    if (!this.difference) {
      const now = JSON.parse(redactedJson(request, this.redact, dropImageBytes)) as ModelRequest;
      const found = recorded ? firstDifference(recorded.request, now) : { path: '(request)', recorded: '(none: the recording ends here)', now: `a request with ${now.messages.length} messages` };
      if (found) {
        this.difference = { ...found, request: index + 1, turn };
        this.stop();
      }
    }
    if (this.difference || !recorded) throw new ProviderError('bad_request', 'replay: the request differs from the recording');
    const { reply } = recorded;
    if (reply.kind === 'none') {
      // A request without a reply that is not the run's last was refused as too long (then shrunk and sent again).
      if (index < this.run.exchanges.length - 1) throw new ProviderError('context_length', 'replay: the recorded request was too long');
      throw new ProviderError('server', 'replay: the recorded request got no reply', { retryable: false });
    }
    const usage = recorded.usage ? { usage: recorded.usage } : {};
    if (reply.kind === 'text') {
      yield { type: 'response', response: { message: { role: 'assistant', content: reply.text, toolCalls: [] }, finishReason: 'stop', ...usage } };
      return;
    }
    yield { type: 'response', response: { message: structuredClone(reply.message), finishReason: reply.finishReason, ...usage } };
  }
}

/**
 * The context policy's provider during a replay: each summary request is answered with the next
 * recorded compaction's summary. Summary requests are not stored, so they are not compared; the
 * turn request built from the summary is.
 */
export function recordedSummaries(run: RecordedRun): Provider {
  let next = 0;
  return {
    name: run.provider,
    async *stream(): AsyncIterable<ProviderEvent> {
      const summary = run.summaries[next++];
      if (!summary) throw new ProviderError('server', 'replay: no more compactions were recorded', { retryable: false });
      yield { type: 'response', response: { message: { role: 'assistant', content: summary.text, toolCalls: [] }, finishReason: 'stop', ...(summary.usage ? { usage: summary.usage } : {}) } };
    },
  };
}
