import type { StopReason } from '../../contracts/events.js';

export const EXIT = { answered: 0, providerError: 1, usage: 2, brake: 3, aborted: 130 } as const;

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
