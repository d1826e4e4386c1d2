import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { userCacheDir } from '../contracts/user-cache-dir.js';

/** A folder search_docs covers: `knowledge: [{ name, path, glob }]` in config, or `--docs DIR`. */
export interface KnowledgeSource {
  name: string;
  /** Absolute. */
  path: string;
  /** Which files, relative to `path` (picomatch). Default: DEFAULT_DOCS_GLOB. */
  glob?: string;
}

export const DEFAULT_DOCS_GLOB = '**/*.{md,markdown,mdx,txt,rst,adoc,html,htm,ts,tsx,js,jsx,mjs,py,go,rs,java,kt,rb,c,h,cpp,hpp,cs,sh,yaml,yml,toml,json}';

/** Files larger than this are left out: generated bundles and dumps, not documentation. */
export const MAX_DOC_BYTES = 2 * 1024 * 1024;

/** One index file per set of sources, so two projects with different docs never share one. */
export function indexPath(sources: readonly KnowledgeSource[], env: NodeJS.ProcessEnv = process.env): string {
  const key = createHash('sha256')
    .update(JSON.stringify(sources.map((s) => [s.name, s.path, s.glob ?? DEFAULT_DOCS_GLOB])))
    .digest('hex')
    .slice(0, 16);
  return join(userCacheDir(env), 'knowledge', `${key}.json`);
}
