/**
 * What a wire protocol under conformance test provides: a local server that replays a neutral
 * script in that protocol, and a provider pointed at it. The same scenarios then run against
 * every protocol in PROTOCOLS.
 */
import type { Provider } from '../../src/providers/provider.js';
import type { ScriptedReply } from '../../src/providers/scripted.js';

/** One scripted server step, in neutral terms each protocol translates to its own wire. */
export type ConformanceStep =
  | ScriptedReply
  | { kind: 'http_error'; status: number; headers?: Record<string, string>; body?: unknown }
  /** Streams the reply's first `afterEvents` wire events, then drops the connection. */
  | { kind: 'cut'; reply: ScriptedReply; afterEvents: number };

export interface RunningServer {
  url: string;
  requests: unknown[];
  violations: string[];
  close(): Promise<void>;
}

export interface ProtocolUnderTest {
  name: string;
  start(script: ConformanceStep[]): Promise<RunningServer>;
  provider(url: string): Provider;
}
