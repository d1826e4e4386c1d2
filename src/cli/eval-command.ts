import type { CliArgs } from './args.js';
import { UsageError } from './usage-error.js';

export async function evalCommand(_args: CliArgs, _signal: AbortSignal): Promise<number> {
  throw new UsageError('eval: not yet');
}
