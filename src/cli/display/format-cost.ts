/** US dollars as every CLI figure shows them (`/cost`, the status line, `sessions`, `agents`): four decimals under $1. */
export function formatCost(usd: number): string {
  return `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}
