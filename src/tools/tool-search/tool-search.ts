import type { ToolCall } from '../../contracts/messages.js';
import type { ToolSchema } from '../../contracts/provider.js';
import type { Tool } from '../../contracts/tool.js';
import type { OfferNote, ResolvedCall, ToolOffer } from '../registry.js';
import { lazyOwnTool } from './lazy-own-tool.js';
import type { ToolSearchIndex } from './search-index.js';
import { CALL_DESCRIPTION, CALL_PARAMETERS, CALL_TOOL, DEFAULT_RESULTS, SEARCH_PARAMETERS, TOOL_SEARCH, oneLine, schemaTokens, searchDescription } from './tool-offer.js';
import type { ToolSearchMode } from './tool-search-mode.js';

const deferredSchemas = new WeakMap<Tool, ToolSchema>();

/** The tool's schema marked for the provider to load (one object per tool, so the held offer stays the same objects). */
function deferredSchema(tool: Tool): ToolSchema {
  let schema = deferredSchemas.get(tool);
  if (!schema) deferredSchemas.set(tool, (schema = { ...tool.schema, deferLoading: true }));
  return schema;
}

export interface ToolSearchOptions {
  mode: ToolSearchMode;
  /** The model's context window in tokens: `auto` defers once the deferrable schemas pass its share of it. */
  contextWindow: number;
  /** Results per search (default 8). */
  results?: number;
  /**
   * The provider loads deferred tools itself (Anthropic's `defer_loading`, where the endpoint
   * accepts it): every tool is sent, the deferred ones marked, and a search's result references
   * the tools it found instead of carrying their schemas; there is no call_tool.
   */
  native?: boolean;
}

/**
 * Tool search: past the threshold, the tools that may be deferred (MCP tools not marked always
 * loaded) leave the offer; `tool_search` lists each by name and one line, finds them (BM25) and
 * returns their schemas, and `call_tool` calls one loaded by an earlier reply. The offer is the
 * same array on every request of a run (the registry holds it), so every provider's prompt cache
 * keeps its prefix: what a search loads changes nothing already sent. Its code beyond this file
 * (zod, minisearch) loads at the first search or bridged call.
 */
export class ToolSearch implements ToolOffer {
  private deferring = false;
  private deferred = new Map<string, Tool>();
  private readonly loadedNames = new Set<string>();
  private index: Promise<ToolSearchIndex> | undefined;
  private notes: OfferNote[] = [];
  private reported = '';
  private readonly own: Map<string, Tool>;

  constructor(private readonly options: ToolSearchOptions) {
    const native = options.native === true;
    const description = () => searchDescription(this.listing(), native);
    const search = lazyOwnTool({ name: TOOL_SEARCH, description, parameters: SEARCH_PARAMETERS, readOnly: true }, async () => (await import('./search-tool.js')).makeSearchTool((query, limit) => this.search(query, limit), description, native));
    const call = lazyOwnTool({ name: CALL_TOOL, description: () => CALL_DESCRIPTION, parameters: CALL_PARAMETERS, readOnly: false }, async () => (await import('./call-tool-bridge.js')).makeCallTool());
    this.own = new Map(native ? [[TOOL_SEARCH, search]] : [[TOOL_SEARCH, search], [CALL_TOOL, call]]);
  }

  get mode(): ToolSearchMode {
    return this.options.mode;
  }

  /** Whether tools are deferred in the offer last made. */
  get active(): boolean {
    return this.deferring;
  }

  tool(name: string): Tool | undefined {
    return this.deferring ? this.own.get(name) : undefined;
  }

  /** The names loaded by searches so far. */
  loaded(): ReadonlySet<string> {
    return new Set(this.loadedNames);
  }

  /** The tools deferred in the offer last made. */
  deferredNames(): string[] {
    return this.deferring ? [...this.deferred.keys()] : [];
  }

  schemas(tools: readonly Tool[]): ToolSchema[] {
    const candidates = tools.filter((tool) => tool.search && !tool.search.alwaysLoad);
    const all = tools.map((tool) => tool.schema);
    const deferredTokens = candidates.reduce((sum, tool) => sum + schemaTokens(tool.schema), 0);
    const { mode, contextWindow } = this.options;
    // Once deferring, a run stays so: the offer must not flip back and forth as servers come and go.
    this.deferring = candidates.length > 0 && mode.kind !== 'never' && (this.deferring || mode.kind === 'always' || deferredTokens > (contextWindow * mode.percent) / 100);
    if (!this.deferring) return all;
    this.deferred = new Map(candidates.map((tool) => [tool.name, tool]));
    this.index = undefined;
    const kept = tools.filter((tool) => !this.deferred.has(tool.name)).map((tool) => tool.schema);
    const own = [...this.own.values()].map((tool) => tool.schema);
    // Native: every tool is sent, the deferred ones marked (the API leaves them out of the prompt
    // until a result references them); tool_search last, so the tools' cache breakpoint is on a tool that is not deferred.
    const offered = this.options.native ? [...kept, ...candidates.map(deferredSchema), ...own] : [...kept, ...own];
    const key = [...this.deferred.keys()].join('\n');
    if (key !== this.reported) {
      this.reported = key;
      const fullTokens = all.reduce((sum, schema) => sum + schemaTokens(schema), 0);
      const offeredTokens = offered.filter((schema) => !schema.deferLoading).reduce((sum, schema) => sum + schemaTokens(schema), 0);
      const alwaysLoaded = tools.filter((tool) => tool.search?.alwaysLoad).map((tool) => tool.name);
      this.notes.push({ type: 'tool_search', action: 'deferred', deferred: [...this.deferred.keys()], ...(alwaysLoaded.length ? { alwaysLoaded } : {}), fullTokens, offeredTokens, savedTokens: fullTokens - offeredTokens });
    }
    return offered;
  }

  /**
   * A reply's call_tool calls as the calls of the tools they name, resolved before any of the reply
   * runs: a tool that a search in the same reply loads is refused (the model has not seen its schema).
   */
  async resolveCalls(calls: readonly ToolCall[], offered: (name: string) => Tool | undefined): Promise<ResolvedCall[]> {
    if (!this.deferring || this.options.native || !calls.some((call) => call.name === CALL_TOOL)) return calls.map(() => ({}));
    const { resolveBridgedCall } = await import('./call-tool-bridge.js');
    const loadedBefore = this.loaded();
    const state = { deferredTool: (name: string) => this.deferred.get(name), offeredTool: (name: string) => (this.deferred.has(name) || this.own.has(name) ? undefined : offered(name)) };
    return calls.map((call) => (call.name === CALL_TOOL ? resolveBridgedCall(call, state, loadedBefore) : {}));
  }

  /** What happened since the last call (deferral, searches, loads), for the loop to record as events. */
  takeNotes(): OfferNote[] {
    const notes = this.notes;
    this.notes = [];
    return notes;
  }

  private listing(): string {
    return [...this.deferred.values()].map((tool) => `- ${tool.name}: ${oneLine(tool.description)}`).join('\n');
  }

  private async search(query: string, limit = this.options.results ?? DEFAULT_RESULTS): Promise<Tool[]> {
    const deferred = this.deferred;
    this.index ??= import('./search-index.js').then(({ ToolSearchIndex }) => new ToolSearchIndex(deferred.values()));
    const found = (await this.index).search(query, limit).map((name) => deferred.get(name)!);
    const fresh = found.filter((tool) => !this.loadedNames.has(tool.name)).map((tool) => tool.name);
    for (const name of fresh) this.loadedNames.add(name);
    this.notes.push({ type: 'tool_search', action: 'search', query, results: found.map((tool) => tool.name), loaded: fresh });
    return found;
  }
}
