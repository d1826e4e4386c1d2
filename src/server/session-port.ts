import type { ApiEvent, CreateSessionBody, Decision, PermissionModeBody, PlanScopeBody, PromptMode, SessionInfo } from './api-schemas.js';
import type { HostedGoal } from './goal-schemas.js';
import type { HostedLand } from './land-schemas.js';
import type { AgentBody } from './agent-schemas.js';

/**
 * What the server asks of the conversation core: sessions that take prompts, interrupts and answers,
 * and whose events are numbered and already in the session file when a listener hears of them. The
 * server holds no agent and numbers nothing; an adapter (cli/commands/serve/served-sessions.ts) makes
 * the core's session object fit this.
 */
export interface HostedSession {
  readonly id: string;
  readonly workspace: string;
  /** What GET /v1/sessions/{id} shows. */
  info(): SessionInfo;
  /**
   * `queue` runs after what is running; `steer` reaches the model with the running turn's next request.
   * `permissionMode` (and an approved plan's `planScope`) becomes the session's mode at once.
   */
  prompt(text: string, mode: PromptMode, options?: { permissionMode?: PermissionModeBody; planScope?: PlanScopeBody }): void;
  /**
   * The session's permission mode from now on (its running turn's next call is checked in it), and an
   * approved plan's bounds or none; returns the mode it is in, undefined when it has none to change.
   */
  setMode(permissionMode: PermissionModeBody, planScope?: PlanScopeBody): PermissionModeBody | undefined;
  /** Stops the running turn (recorded as interrupted); false when nothing was running. */
  interrupt(): boolean;
  /** The first answer to a request wins; a later one (from any front end) is `answered`. */
  answer(requestId: string, decision: Decision): 'accepted' | 'answered' | 'unknown';
  /** Up to `limit` events numbered after `after`, read from the session file. */
  readAfter(after: number, limit: number): Promise<ApiEvent[]>;
  /** Each event as it is persisted, in order; returns the unsubscribe. */
  subscribe(listener: (event: ApiEvent) => void): () => void;
  /** Stops a running turn and closes the session file. */
  close(): Promise<void>;
  /** The session's goal (src/server/goal-routes.ts); absent: this host runs no goals. */
  readonly goal?: HostedGoal;
  /** Landing it into its checkout when it is a background session in a worktree (src/server/land-route.ts); absent: this host lands nothing. */
  readonly land?: HostedLand;
}

export interface SessionHost {
  /** A new session, or (`resume`) a stored one reopened; throws OpenRefused for a request that cannot be met. */
  open(request: CreateSessionBody): Promise<HostedSession>;
  /**
   * A session this server hosted before (a restart): reopened from its file, a turn that was in
   * flight recorded as interrupted. Undefined when the id is not one of this server's.
   */
  reopen(id: string): Promise<HostedSession | undefined>;
  /** Every session id this server has hosted, newest last. */
  known(): string[];
  /** The background sessions of its data folder, as `vibe-agent agents` shows them (GET /v1/agents); absent: none. */
  readonly agents?: HostedAgents;
}

/** A create request the host cannot meet (no such workspace or session, bad settings): a 400/404 with this message. */
export class OpenRefused extends Error {
  override name = 'OpenRefused';
  constructor(
    message: string,
    readonly status: 400 | 404 | 409 = 400,
  ) {
    super(message);
  }
}

/** The background sessions of the server's data folder (src/cli/commands/serve/served-agents.ts behind it). */
export interface HostedAgents {
  /** Every background session not discarded; `open` reopens one from its file when the server does not hold it. */
  list(open: (id: string) => Promise<HostedSession | undefined>): Promise<AgentBody[]>;
  /** One by id; undefined when it is no background session of this data folder. */
  get(id: string, open: (id: string) => Promise<HostedSession | undefined>): Promise<AgentBody | undefined>;
}
