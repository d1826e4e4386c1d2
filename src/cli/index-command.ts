import type { CliArgs } from './args.js';
import { EXIT } from './exit-codes.js';

/** `vibe-agent index [--docs DIR]`: placeholder until the knowledge index lands. */
export async function indexCommand(_args: CliArgs, _signal: AbortSignal): Promise<number> {
  process.stderr.write('vibe-agent: index is not available yet.\n');
  return EXIT.providerError;
}
