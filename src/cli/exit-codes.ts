import type { StopReason } from '../contracts/events.js';

/** Every exit code of the CLI; docs/configuration.md#exit-codes says when each is used. */
export const EXIT = { answered: 0, providerError: 1, usage: 2, brake: 3, approvalNeeded: 4, belowMinPass: 5, aborted: 130 } as const;

export function exitCodeFor(reason: StopReason): number {
  switch (reason) {
    case 'answered':
    case 'plan':
      return EXIT.answered;
    case 'provider_error':
      return EXIT.providerError;
    case 'aborted':
      return EXIT.aborted;
    case 'turn_limit':
    case 'repeated_call':
    case 'cost_limit':
    case 'token_limit':
      return EXIT.brake;
  }
}
