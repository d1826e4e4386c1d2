import { defineTool } from '../../define-tool.js';
import type { Tool } from '../../../contracts/tool.js';
import { listFilesWith, withWarnings } from './file-lister.js';
import { findRipgrep } from './ripgrep-detect.js';
import { compileGlob, ripgrepTypeGlob } from './search-glob.js';
import { searchPermission } from './search-permission.js';
import { resolveSearchTarget } from './search-target.js';
import type { SearchToolOptions } from './search-tool-options.js';

export const DEFAULT_LIST_LIMIT = 1000;
/** Below the registry's 30 000-character cap, so the closing note is never cut away. */
export const MAX_LIST_CHARS = 24_000;

export function createListFilesTool(options: SearchToolOptions = {}): Tool {
  const limit = options.maxListedFiles ?? DEFAULT_LIST_LIMIT;
  return defineTool({
    name: 'list_files',
    description:
      'List files matching a glob, sorted, paths relative to the workspace. Honours .gitignore; skips node_modules and .git. ' +
      `A glob without "/" matches names at any depth ("*.ts"). At most ${limit} paths; says when more matched.`,
    parameters: (z) => z.object({
      pattern: z.string().min(1).optional().describe('Default "**/*".'),
      path: z.string().min(1).optional().describe('Directory; default the workspace.'),
    }),
    readOnly: true,
    permission: searchPermission,
    async execute({ pattern, path }, { signal, workspace }) {
      const glob = compileGlob(pattern ?? '**/*');
      if (!glob.ok) return { output: glob.error, isError: true };
      const resolved = await resolveSearchTarget(path, workspace, options, pattern === undefined ? undefined : glob.test);
      if (!resolved.ok) return { output: resolved.reason, isError: true };
      const { target } = resolved;
      if (target.isFile) return { output: `${path} is a file, not a directory; list_files lists directories (use grep or read the file).`, isError: true };
      const typeGlob = pattern === undefined ? undefined : ripgrepTypeGlob(pattern);
      const { head, total, warnings } = await listFilesWith(await findRipgrep(options.ripgrep, signal), { target, limit, signal, ...(typeGlob ? { typeGlob } : {}) });
      if (total === 0) return withWarnings(`No files match ${JSON.stringify(pattern ?? '**/*')} in ${path ?? 'the workspace'}.`, warnings);
      return withWarnings(formatList(head, total), warnings);
    },
  });
}

/** `head`: the first sorted paths, at most the limit of them; `total`: how many matched. */
function formatList(head: readonly string[], total: number): string {
  const shown: string[] = [];
  let chars = 0;
  for (const file of head) {
    if (chars + file.length + 1 > MAX_LIST_CHARS) break;
    shown.push(file);
    chars += file.length + 1;
  }
  if (shown.length < total) {
    shown.push(`[${shown.length} of ${total} files shown; ${total - shown.length} more omitted. Narrow the pattern or path.]`);
  }
  return shown.join('\n');
}
