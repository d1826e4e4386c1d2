import type { AgentEvent } from '../contracts/events.js';

/**
 * Events that arrive while a tool runs (a subagent's), for the loop to pass on in its own stream:
 * the tool pushes, and runToolCalls yields them between the calls' results.
 */
export class EventRelay {
  private queue: AgentEvent[] = [];
  private wake: (() => void) | undefined;

  push(event: AgentEvent): void {
    this.queue.push(event);
    this.wake?.();
    this.wake = undefined;
  }

  /** Resolves as soon as an event is waiting (at once when one already is). */
  arrival(): Promise<void> {
    if (this.queue.length) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  /** The waiting events, oldest first; the queue is empty after. */
  drain(): AgentEvent[] {
    return this.queue.splice(0);
  }
}
