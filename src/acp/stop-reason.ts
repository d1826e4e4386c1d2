import type { StopReason as AcpStopReason } from '@agentclientprotocol/sdk';
import type { StopReason } from '../contracts/events.js';

/**
 * Our stop reasons in ACP's words. A provider error has none: the prompt answers with an error.
 * A spending or token limit is ACP's max_tokens (the run stopped for a budget, not by choice);
 * a repeated-call brake is a turn limit in spirit (the agent stopped itself from looping).
 */
export function acpStopReason(reason: Exclude<StopReason, 'provider_error'>): AcpStopReason {
  switch (reason) {
    case 'answered':
    case 'plan':
      return 'end_turn';
    case 'turn_limit':
    case 'repeated_call':
      return 'max_turn_requests';
    case 'aborted':
      return 'cancelled';
    case 'cost_limit':
    case 'token_limit':
      return 'max_tokens';
  }
}
