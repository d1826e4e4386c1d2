import type { ToolCall } from '../../contracts/messages.js';
import { jsonText } from '../../contracts/canonical-json.js';

/** A streamed tool-call fragment as OpenAI-compatible servers actually send it. */
export interface ToolCallFragment {
  index?: number | null;
  id?: string | null;
  type?: string | null;
  function?: { name?: string | null; arguments?: string | Record<string, unknown> | null } | null;
}

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Assembles streamed tool-call deltas into whole calls.
 * - By `index` when present, but an index reused with a different non-empty id starts a new
 *   call (some servers number every call 0).
 * - Without `index`, a new non-empty id, or a new name, starts a new call (an id arriving with a
 *   name for a call that already has a name opens the next call).
 * - An empty-string id never starts a call; ids and names replace, never concatenate.
 * - Arguments arrive as string fragments (appended) or as a whole object (replaces).
 */
export class ToolCallAccumulator {
  private readonly calls: PartialCall[] = [];
  private readonly byIndex = new Map<number, number>();
  private current: number | undefined;

  /** Adds a fragment; returns the position of the call it belongs to and whether it is new. */
  add(fragment: ToolCallFragment): { position: number; isNew: boolean } {
    const id = fragment.id ?? '';
    const name = fragment.function?.name ?? '';
    let position = this.locate(fragment.index, id, name);
    const isNew = position === undefined;
    if (position === undefined) {
      position = this.calls.push({ id: '', name: '', arguments: '' }) - 1;
      if (typeof fragment.index === 'number') this.byIndex.set(fragment.index, position);
    }
    this.current = position;
    const call = this.calls[position]!;
    if (id) call.id = id;
    if (name) call.name = name;
    const args = fragment.function?.arguments;
    if (typeof args === 'string') call.arguments += args;
    else if (args && typeof args === 'object') call.arguments = jsonText(args);
    return { position, isNew };
  }

  private locate(index: number | null | undefined, id: string, name: string): number | undefined {
    if (typeof index === 'number') {
      const position = this.byIndex.get(index);
      if (position === undefined) return undefined;
      const existing = this.calls[position]!;
      if (id && existing.id && id !== existing.id) return undefined;
      return position;
    }
    if (this.current === undefined) return undefined;
    const existing = this.calls[this.current]!;
    if (id && existing.id && id !== existing.id) return undefined;
    // An id and a name together open a call; a call that already has a name is finished with.
    if (id && !existing.id && name && existing.name) return undefined;
    if (!id && name && existing.name && name !== existing.name) return undefined;
    return this.current;
  }

  get size(): number {
    return this.calls.length;
  }

  peek(position: number): Readonly<PartialCall> | undefined {
    return this.calls[position];
  }

  /**
   * The finished calls; a call the server sent without an id gets a stable synthetic one, and a
   * repeated id (servers that number every call alike) gets a suffix: each result must name
   * exactly one call, or the model cannot tell them apart and strict APIs reject the history.
   */
  finish(idPrefix: string): ToolCall[] {
    const seen = new Set<string>();
    return this.calls
      .filter((call) => call.name !== '' || call.arguments !== '')
      .map((call, position) => {
        let id = call.id || `${idPrefix}_${position}`;
        for (let n = 2; seen.has(id); n++) id = `${call.id}_${n}`;
        seen.add(id);
        return { id, name: call.name, arguments: call.arguments };
      });
  }
}
