/** What a session is doing, as `vibe-agent agents` and the live page say it. */
export type SessionState = 'working' | 'needs you' | 'done' | 'failed' | 'stopped';

/**
 * A session's state from what the server shows of it (GET /v1/sessions/{id}) and its last `stop`
 * reason and last event type. Self-contained on purpose: the live page embeds this function's source.
 */
export function sessionState(info: { status: string; queued: number; pendingApprovals: readonly unknown[] }, lastStopReason: string | undefined, lastType: string | undefined): SessionState {
  const failedReasons = ['provider_error', 'cost_limit', 'token_limit', 'repeated_call', 'turn_limit'];
  if (info.status === 'closed') return 'stopped';
  if (info.pendingApprovals.length > 0) return 'needs you';
  if (info.status === 'running' || info.queued > 0) return 'working';
  if (lastStopReason !== undefined && failedReasons.includes(lastStopReason)) return 'failed';
  if (lastStopReason === 'aborted' || lastType === 'interrupted') return 'stopped';
  return 'done';
}
