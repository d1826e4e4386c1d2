import { readEvents, type ReadEventsOptions, type ServerEvent } from '../../src/client/index.js';

/**
 * Reads a session's event stream in the background (through the client's reconnecting reader) and
 * lets a test wait for an event: `await watch.until((e) => e.type === 'stop', 'the stop')`.
 */
export class EventWatch {
  readonly events: ServerEvent[] = [];
  private readonly stopReading = new AbortController();
  private readonly waiters = new Set<() => void>();
  private failure: unknown;

  constructor(options: Omit<ReadEventsOptions, 'signal'>) {
    void (async () => {
      try {
        for await (const event of readEvents({ ...options, signal: this.stopReading.signal, retryMs: 50 })) {
          this.events.push(event);
          for (const wake of [...this.waiters]) wake();
        }
      } catch (error) {
        this.failure = error;
        for (const wake of [...this.waiters]) wake();
      }
    })();
  }

  /** The first event (seen already or still to come) after `from` that matches; a generous backstop only. */
  until(match: (event: ServerEvent) => boolean, what: string, from = 0, backstopMs = 90_000): Promise<ServerEvent> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`no ${what} on the stream; saw: ${this.events.map((e) => `${e.seq}:${e.type}`).join(' ')}`)), backstopMs);
      const check = () => {
        if (this.failure) return done(this.failure);
        const found = this.events.find((event) => event.seq > from && match(event));
        if (found) done(undefined, found);
      };
      const done = (error: unknown, event?: ServerEvent) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (event) resolve(event);
        else reject(error);
      };
      this.waiters.add(check);
      check();
    });
  }

  close(): void {
    this.stopReading.abort();
  }
}
