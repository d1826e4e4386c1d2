import { ByteBudgetError } from '../../contracts/byte-budget.js';
import { ProviderError } from '../../contracts/provider-error.js';

/** The byte budget's error as the one error a provider throws: not retried (the same request would send as much again). */
export function budgetProviderError(error: unknown): ProviderError | undefined {
  const budget = error instanceof ByteBudgetError ? error : error instanceof Error && error.cause instanceof ByteBudgetError ? error.cause : undefined;
  if (!budget) return undefined;
  return new ProviderError('server', budget.message, { cause: budget, retryable: false });
}
