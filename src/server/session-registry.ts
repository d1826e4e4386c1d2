import type { CreateSessionBody } from './api-schemas.js';
import type { HostedSession, SessionHost } from './session-port.js';

/** Past a limit: the request is answered 503 with Retry-After. */
export class AtCapacity extends Error {
  override name = 'AtCapacity';
}

/**
 * The sessions open in this process. A session this server hosted before a restart is reopened
 * from its file the first time a request names it (its events are there; a turn that was in
 * flight is recorded as interrupted by the host).
 */
export class SessionRegistry {
  private readonly open = new Map<string, HostedSession>();
  private readonly reopening = new Map<string, Promise<HostedSession | undefined>>();

  constructor(
    private readonly host: SessionHost,
    private readonly maxSessions: number,
  ) {}

  async create(request: CreateSessionBody): Promise<HostedSession> {
    if (this.open.size >= this.maxSessions) throw new AtCapacity(`this server holds ${this.maxSessions} sessions, its limit (--max-sessions); stop one (DELETE) or retry later`);
    if (request.resume !== undefined && this.open.has(request.resume)) return this.open.get(request.resume)!;
    const session = await this.host.open(request);
    this.open.set(session.id, session);
    return session;
  }

  async get(id: string): Promise<HostedSession | undefined> {
    const held = this.open.get(id);
    if (held) return held;
    if (!this.host.known().includes(id)) return undefined;
    if (this.open.size >= this.maxSessions) throw new AtCapacity(`this server holds ${this.maxSessions} sessions, its limit (--max-sessions)`);
    let pending = this.reopening.get(id);
    if (!pending) {
      pending = this.host.reopen(id).finally(() => this.reopening.delete(id));
      this.reopening.set(id, pending);
    }
    const session = await pending;
    if (session) this.open.set(id, session);
    return session;
  }

  list(): HostedSession[] {
    return [...this.open.values()];
  }

  async stop(id: string): Promise<boolean> {
    const session = this.open.get(id);
    if (!session) return false;
    this.open.delete(id);
    await session.close();
    return true;
  }

  async closeAll(): Promise<void> {
    const sessions = [...this.open.values()];
    this.open.clear();
    await Promise.allSettled(sessions.map((session) => session.close()));
  }
}
