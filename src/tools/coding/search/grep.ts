import { defineTool } from '../../define-tool.js';
import type { Tool } from '../../../contracts/tool.js';
import { withWarnings } from './file-lister.js';
import { formatGrep } from './grep-format.js';
import { translatePattern } from './grep-pattern.js';
import { grepTree } from './grep-search.js';
import { compileQuery } from './js-grep.js';
import { findRipgrep } from './ripgrep-detect.js';
import { compileGlob, ripgrepTypeGlob } from './search-glob.js';
import { searchPermission } from './search-permission.js';
import { resolveSearchTarget } from './search-target.js';
import type { SearchToolOptions } from './search-tool-options.js';

export const DEFAULT_GREP_RESULTS = 200;
export const MAX_GREP_RESULTS = 1000;
export const MAX_GREP_CONTEXT = 10;
/** Below the registry's 30 000-character cap, so the closing note is never cut away. */
export const MAX_GREP_CHARS = 24_000;

export function createGrepTool(options: SearchToolOptions = {}): Tool {
  // The tool is made when its first call is named (its code loads then): the version check runs
  // while the rest of the reply streams, not after it.
  findRipgrep(options.ripgrep).catch(() => undefined);
  return defineTool({
    name: 'grep',
    description:
      'Search file contents by regular expression (no lookaround or backreferences). ' +
      'Output `path:line:column: text` per matching line, `path-line- text` for context, sorted. Honours .gitignore; skips binary files. ' +
      `At most max_results (default ${DEFAULT_GREP_RESULTS}) lines; says when more exist.`,
    parameters: (z) => z.object({
      pattern: z.string().min(1),
      path: z.string().min(1).optional().describe('File or directory; default the workspace.'),
      glob: z.string().min(1).optional().describe('File filter, e.g. "*.ts".'),
      ignore_case: z.boolean().optional(),
      context: z.number().int().min(0).max(MAX_GREP_CONTEXT).optional().describe('Lines before and after.'),
      max_results: z.number().int().positive().max(MAX_GREP_RESULTS).optional(),
    }),
    readOnly: true,
    permission: searchPermission,
    async execute(args, { signal, workspace }) {
      const translated = translatePattern(args.pattern);
      if (!translated.ok) return { output: translated.error, isError: true };
      const glob = args.glob === undefined ? undefined : compileGlob(args.glob);
      if (glob && !glob.ok) return { output: glob.error, isError: true };
      const resolved = await resolveSearchTarget(args.path, workspace, options, glob?.test);
      if (!resolved.ok) return { output: resolved.reason, isError: true };
      const { target } = resolved;
      const maxResults = args.max_results ?? DEFAULT_GREP_RESULTS;
      const context = args.context ?? 0;
      const ignoreCase = args.ignore_case ?? false;
      // A single file is searched by the JavaScript engine: no walk to speed up, and ripgrep
      // treats an explicitly named file differently (binary handling, memory maps).
      const ripgrep = target.isFile ? undefined : await findRipgrep(options.ripgrep, signal);
      const typeGlob = args.glob === undefined ? undefined : ripgrepTypeGlob(args.glob);
      const { collector, stopped, warnings } = await grepTree(ripgrep, target, {
        rgQuery: { source: translated.rust, ignoreCase, typeGlob },
        query: compileQuery({ source: translated.js, required: translated.required, ignoreCase, context }),
        maxResults,
        context,
      }, signal);
      if (collector.totalMatches === 0) return withWarnings(`No matches for ${JSON.stringify(args.pattern)} in ${args.path ?? 'the workspace'}.`, warnings);
      return withWarnings(formatGrep(collector.sorted(), { maxResults, context, maxChars: MAX_GREP_CHARS, ...(stopped ? {} : { totalMatches: collector.totalMatches, totalFiles: collector.totalFiles }) }), warnings);
    },
  });
}
