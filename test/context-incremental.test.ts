import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PrefixMap, PrefixSum, sharedPrefix } from '../src/contracts/prefix-memo.js';
import { MemoryOutputStore } from '../src/tools/output-store.js';
import { defineTool } from '../src/tools/define-tool.js';
import { runContextSession } from './support/context-session.js';

describe('per-round work only on what is new in the history', () => {
  it('PrefixMap and PrefixSum redo only the elements past the shared prefix, and start over where the list was rewritten', () => {
    const seen: number[] = [];
    const map = new PrefixMap((n: { v: number }) => (seen.push(n.v), n.v * 10));
    const sum = new PrefixSum((n: { v: number }) => n.v);
    const items = [1, 2, 3, 4].map((v) => ({ v }));
    expect(map.map(items)).toEqual([10, 20, 30, 40]);
    expect(sum.total(items)).toBe(10);
    const grown = [...items, { v: 5 }];
    expect(map.map(grown)).toEqual([10, 20, 30, 40, 50]);
    expect(sum.total(grown)).toBe(15);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    // A compaction: the second element replaced; everything from it is redone.
    const rewritten = [grown[0]!, { v: 20 }, ...grown.slice(2)];
    expect(map.map(rewritten)).toEqual([10, 200, 30, 40, 50]);
    expect(sum.total(rewritten)).toBe(33);
    expect(seen).toEqual([1, 2, 3, 4, 5, 20, 3, 4, 5]);
    expect(sum.total([])).toBe(0);
    // The caller may append to what it got back without changing what is remembered.
    const out = map.map(rewritten);
    out.push(0);
    expect(map.map(rewritten)).toHaveLength(5);
    expect(sharedPrefix(items, grown)).toBe(4);
  });

  it('a capped output is saved to the store once, not again every round it stays in the history', async () => {
    const puts: string[] = [];
    const store = new MemoryOutputStore();
    const counting = { put: async (id: string, text: string) => (puts.push(id), store.put(id, text)), get: (id: string) => store.get(id) };
    const big = defineTool({ name: 'dump', description: 'Returns a long text.', parameters: z.object({ n: z.number().int() }), readOnly: true, execute: async ({ n }) => `line ${n}\n`.repeat(3_000) });
    let turns = 0;
    const { result } = await runContextSession(
      () => (++turns <= 6 ? { toolCalls: [{ name: 'dump', arguments: { n: turns } }] } : { text: 'done' }),
      { tools: [big], policy: { store: counting, contextWindow: 200_000 }, agent: { maxTurns: 10 } },
    );
    expect(result.stopReason).toBe('answered');
    // Six outputs, each cut and saved: six puts of six different ids over seven requests.
    expect(puts).toHaveLength(6);
    expect(new Set(puts).size).toBe(6);
  });
});
