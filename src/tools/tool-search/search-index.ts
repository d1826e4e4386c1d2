import MiniSearch from 'minisearch';
import type { Tool } from '../../contracts/tool.js';

import { DEFAULT_RESULTS } from './tool-offer.js';

interface Entry {
  id: string;
  name: string;
  server: string;
  title: string;
  description: string;
  args: string;
}

/** camelCase and snake_case words apart, so `createIssue` and `create_issue` both match "issue". */
const words = (text: string): string => text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-./:]+/g, ' ');

function entryOf(tool: Tool): Entry {
  const properties = (tool.schema.parameters as { properties?: Record<string, unknown> }).properties ?? {};
  const ownName = tool.search?.tool ?? tool.name;
  return {
    id: tool.name,
    name: words(`${ownName} ${tool.name}`),
    server: words(tool.search?.server ?? ''),
    title: words(tool.search?.title ?? ''),
    description: tool.description,
    args: words(Object.keys(properties).join(' ')),
  };
}

export interface ParsedQuery {
  /** `select:a,b`: these tools, exactly. */
  select?: string[];
  /** `+term`: every result has each of these. */
  required: string[];
  /** The other words, ranked by BM25. */
  terms: string[];
}

export function parseQuery(query: string): ParsedQuery {
  const text = query.trim();
  const select = /^select:(.*)$/is.exec(text);
  if (select) return { select: select[1]!.split(/[\s,]+/).filter(Boolean), required: [], terms: [] };
  const required: string[] = [];
  const terms: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (word.startsWith('+') && word.length > 1) required.push(word.slice(1));
    else terms.push(word);
  }
  return { required, terms };
}

/**
 * BM25 (minisearch's scoring) over each deferred tool's name, server, title, description and
 * argument names; names and titles weigh more than descriptions.
 */
export class ToolSearchIndex {
  private readonly index = new MiniSearch<Entry>({
    fields: ['name', 'server', 'title', 'description', 'args'],
    storeFields: [],
    processTerm: (term) => term.toLowerCase(),
  });
  private readonly byName = new Map<string, Tool>();

  constructor(tools: Iterable<Tool>) {
    for (const tool of tools) this.byName.set(tool.name, tool);
    this.index.addAll([...this.byName.values()].map(entryOf));
  }

  /** The names of the tools the query finds, best first. */
  search(query: string, limit = DEFAULT_RESULTS): string[] {
    const parsed = parseQuery(query);
    if (parsed.select) return parsed.select.map((name) => this.resolve(name)).filter((name): name is string => name !== undefined).slice(0, Math.max(limit, parsed.select.length));
    const words = [...parsed.required, ...parsed.terms].join(' ');
    if (!words.trim()) return [];
    const options = { boost: { name: 3, title: 2, server: 1.5, description: 1, args: 1 }, prefix: (term: string) => term.length > 3, fuzzy: (term: string) => (term.length > 5 ? 0.15 : 0) };
    let hits = this.index.search(words, options).map((hit) => String(hit.id));
    for (const term of parsed.required) {
      const having = new Set(this.index.search(term, { ...options, fuzzy: 0 }).map((hit) => String(hit.id)));
      hits = hits.filter((id) => having.has(id));
    }
    return hits.slice(0, limit);
  }

  /** A name as the model wrote it: ours (`mcp__s__t`) or the server's own (`t`, `s/t`, `s.t`). */
  private resolve(name: string): string | undefined {
    if (this.byName.has(name)) return name;
    const [server, own] = /[/.]/.test(name) ? name.split(/[/.]/, 2) : [undefined, name];
    const matches = [...this.byName.values()].filter((tool) => tool.search?.tool === own && (server === undefined || tool.search.server === server));
    return matches.length === 1 ? matches[0]!.name : undefined;
  }
}
