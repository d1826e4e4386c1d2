/** At most `limit` holders at once; the rest wait in arrival order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Resolves with a release function once a slot is free (rejects if the signal aborts first). */
  acquire(signal: AbortSignal): Promise<() => void> {
    const release = () => {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', cancel);
        resolve(release);
      };
      const cancel = () => {
        this.waiting.splice(this.waiting.indexOf(grant), 1);
        reject(new Error('cancelled while waiting for a free subagent slot'));
      };
      this.waiting.push(grant);
      signal.addEventListener('abort', cancel, { once: true });
    });
  }
}
