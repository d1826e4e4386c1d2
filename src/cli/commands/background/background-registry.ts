import { UsageError } from '../../settings/usage-error.js';
import { readBackgroundEntries, type BackgroundEntry } from '../../../background/background-registry.js';

export { addBackgroundEntry, readBackgroundEntries, type BackgroundEntry } from '../../../background/background-registry.js';

/** One entry by id or unique prefix (or name); a clear error otherwise. */
export function findBackgroundEntry(env: NodeJS.ProcessEnv, key: string): BackgroundEntry {
  const entries = readBackgroundEntries(env);
  const exact = entries.find((entry) => entry.id === key || entry.name === key);
  if (exact) return exact;
  const matches = entries.filter((entry) => entry.id.startsWith(key));
  if (matches.length === 1) return matches[0]!;
  throw new UsageError(matches.length ? `"${key}" names ${matches.length} background sessions; give more of the id` : `no background session "${key}" (vibe-agent agents lists them)`);
}
