import type { CommandInput } from '../../args/command-spec.js';
import { UsageError } from '../../settings/usage-error.js';

export interface DemoArgs {
  /** `demo --compare-protocols`: run the demo both ways and print a table. */
  compareProtocols?: boolean;
}

export function parseDemoArgs({ flags }: CommandInput): DemoArgs {
  if (!flags['compare-protocols']) return {};
  if (flags.protocol) throw new UsageError('--compare-protocols runs both protocols; leave out --protocol.');
  return { compareProtocols: true };
}
