/**
 * What a provider adapter must bring to the conformance suite: a real local server speaking its
 * wire protocol, driven by neutral steps, and the adapter pointed at it. Every protocol in
 * protocols.ts runs the same scenarios (test/provider-conformance.test.ts).
 */
import type { Provider } from '../../src/contracts/provider.js';
import type { ScriptedReply } from '../../src/providers/scripted.js';

/** One server reply: a scripted reply, or a fault. Each protocol maps these to its own wire form. */
export type ServerStep =
  | ScriptedReply
  /**
   * An HTTP error; without `body` the server sends its protocol's usual error body for the status,
   * saying `message` when given. Status 200 is a gateway that answers a stream with an error body.
   */
  | { kind: 'http_error'; status: number; headers?: Record<string, string>; body?: unknown; message?: string }
  /** Streams the reply's first `afterEvents` wire events (SSE frames), then drops the connection. */
  | { kind: 'cut'; reply: ScriptedReply; afterEvents: number }
  /** Streams the reply with a pause before each wire event (for aborting mid-stream). */
  | { kind: 'slow'; reply: ScriptedReply; delayMs: number }
  /** Streams the reply's first `afterEvents` wire events, then nothing, keeping the connection open. */
  | { kind: 'stall'; reply: ScriptedReply; afterEvents: number }
  /** Reads the request and never answers, not even the headers. */
  | { kind: 'silent' }
  /** Streams the reply's first `afterEvents` wire events, then one whose data is not JSON, then ends. */
  | { kind: 'garbled'; reply: ScriptedReply; afterEvents: number };

export interface WireServer {
  url: string;
  /** Request bodies received, in order, in the protocol's own shape. */
  requests: unknown[];
  /** Protocol rules the requests broke (each answered with an HTTP 400). */
  violations: string[];
  close(): Promise<void>;
}

/** Adapter options a scenario needs to set (short time limits for the stall scenarios). */
export interface ProviderTestOptions {
  idleTimeoutMs?: number;
  firstByteTimeoutMs?: number;
}

export interface ProtocolUnderTest {
  name: string;
  start(script: ServerStep[]): Promise<WireServer>;
  provider(url: string, options?: ProviderTestOptions): Provider;
  /**
   * Whether a request carried this reasoning text back to the model. Leave it out for a
   * protocol that replays reasoning by signature only; its server must then enforce the replay.
   */
  reasoningReplayed?(request: unknown, reasoning: string): boolean;
}
