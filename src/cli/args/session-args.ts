import { SESSION_ID_SHAPE } from '../../session/paths.js';
import { normalizeOptionalValueFlag } from './optional-value-flag.js';

/**
 * `--resume` takes an optional value, which node:util parseArgs cannot express. The word after
 * it is the id when it looks like one (8 digits first, e.g. `20261202` or `20261202-2021`);
 * otherwise `--resume` stands alone and the word stays a prompt. `--resume=ID` always works.
 */
export function normalizeResumeFlag(argv: string[]): string[] {
  return normalizeOptionalValueFlag(argv, ['--resume'], '--resume', (word) => SESSION_ID_SHAPE.test(word));
}
