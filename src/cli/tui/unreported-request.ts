import type { AgentEvent } from '../../contracts/events.js';
import type { Message, Usage } from '../../contracts/messages.js';
import type { ToolSchema } from '../../contracts/provider.js';
import { estimateUsage } from '../../core/estimate-usage.js';

export interface RunStart {
  /** The conversation the run was given. */
  messages: Message[];
  system: string;
  input: string;
  tools: ToolSchema[];
  model: string;
}

/**
 * The loop reports usage once a reply is whole, so a request cut off by Ctrl-C was sent (and
 * partly billed) but never counted. This follows one run's history as the loop builds it, so
 * such a request can be counted with an estimate from what was sent and what had streamed back.
 */
export class UnreportedRequest {
  private readonly history: Message[];
  /** A request went out this turn and no reply has come back whole. */
  private open = false;
  private text = '';
  private reasoning = '';

  constructor(private readonly start: RunStart) {
    this.history = [...start.messages];
    // As the loop does: the system prompt first (unless the conversation has one), then the prompt.
    if (start.system && this.history[0]?.role !== 'system') this.history.unshift({ role: 'system', content: start.system });
    this.history.push({ role: 'user', content: start.input });
  }

  /** Follows one event; at an aborted stop with a request still open, returns that request's estimated usage. */
  track(event: AgentEvent): Usage | undefined {
    switch (event.type) {
      case 'turn_start':
        this.open = true;
        this.text = this.reasoning = '';
        break;
      case 'text_delta':
        this.text += event.text;
        break;
      case 'reasoning_delta':
        this.reasoning += event.text;
        break;
      case 'retry':
        this.text = this.reasoning = '';
        break;
      case 'assistant_message':
        this.open = false;
        break;
      case 'compaction':
        if (event.replaced && event.inserted) this.history.splice(event.replaced.from, event.replaced.count, ...event.inserted);
        break;
      case 'turn_end':
        this.history.push(...event.messages);
        break;
      case 'stop':
        if (event.reason !== 'aborted' || !this.open) return undefined;
        this.open = false;
        return estimateUsage(
          { model: this.start.model, messages: this.history, tools: this.start.tools, temperature: 0 },
          { role: 'assistant', content: this.text, toolCalls: [], ...(this.reasoning ? { reasoning: this.reasoning } : {}) },
        );
      default:
        break;
    }
    return undefined;
  }
}
