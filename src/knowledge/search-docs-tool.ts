import { relative, isAbsolute } from 'node:path';
import { z } from 'zod';
import type { Tool } from '../contracts/tool.js';
import { defineTool } from '../tools/define-tool.js';
import type { DocsIndex } from './docs-index.js';
import { excerptOf } from './excerpt.js';
import type { KnowledgeSource } from './knowledge-source.js';

export interface SearchDocsOptions {
  sources: readonly KnowledgeSource[];
  /** The index file (see indexPath). */
  indexPath: string;
  /** Paths inside it are shown relative to it. */
  workspace?: string;
  /** Most results. Default 8. */
  maxResults?: number;
}

/**
 * search_docs: BM25 over the configured folders, chunked by section. The index is opened (built or
 * brought up to date) at the first call of the run, then reused.
 */
export function createSearchDocsTool(options: SearchDocsOptions): Tool {
  let index: Promise<DocsIndex> | undefined;
  const cap = options.maxResults ?? 8;
  const names = options.sources.map((source) => source.name).join(', ');
  return defineTool({
    name: 'search_docs',
    description: `Full-text search (BM25) over the project's documentation folders (${names}). Give keywords, not a sentence. Returns up to ${cap} sections as path:line, score and a short excerpt; read_file the path for more.`,
    parameters: z.object({ query: z.string().min(1), limit: z.number().int().min(1).max(cap).optional() }),
    readOnly: true,
    permission: { category: 'read', subject: ({ query }) => ({ kind: 'text', value: query }) },
    async execute({ query, limit }) {
      // The index code (and minisearch) loads at the first search, not with the tool.
      index ??= import('./docs-index.js').then(({ DocsIndex }) => DocsIndex.open(options.sources, options.indexPath));
      const opened = await index.catch((error: unknown) => {
        index = undefined;
        throw error;
      });
      const hits = opened.search(query, limit ?? cap);
      if (!hits.length) return `No sections match "${query}" in ${opened.report.files} files (${names}). Try other keywords.`;
      const shown = (path: string) => {
        if (!options.workspace) return path;
        const rel = relative(options.workspace, path);
        return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
      };
      const lines = hits.map((hit, i) => {
        const excerpt = excerptOf(hit.path, hit.line, hit.endLine, hit.terms, options.sources.map((source) => source.path));
        return `${i + 1}. ${shown(hit.path)}:${excerpt.line}  score ${hit.score.toFixed(1)}  § ${hit.title}\n   ${excerpt.text}`;
      });
      return `${hits.length} result${hits.length === 1 ? '' : 's'} for "${query}" (${opened.report.chunks} sections in ${opened.report.files} files):\n${lines.join('\n')}`;
    },
  });
}
