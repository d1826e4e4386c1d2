/**
 * Issue 41 point 3: the warning says what actually happened. A first prompt over the budget has
 * nothing earlier to compact: the warning says so, not "still … after compaction".
 */
import { describe, expect, it } from 'vitest';
import { run } from '../src/core/loop.js';
import { createContextPolicy } from '../src/context/policy.js';
import { ScriptedProvider } from '../src/providers/scripted.js';
import { ToolRegistry } from '../src/tools/registry.js';

describe('the over-budget warning', () => {
  it('says nothing could be compacted when the prompt itself is too large', async () => {
    const provider = new ScriptedProvider([{ text: 'done' }]);
    const registry = new ToolRegistry([]);
    const policy = createContextPolicy({ provider, registry, contextWindow: 8_192 });
    const warnings: string[] = [];
    const compactions: unknown[] = [];
    const words = Array.from({ length: 12_000 }, (_, i) => `word${i}`).join(' ');
    const result = await run({ provider, model: 'm', input: words, tools: registry, prepareMessages: policy.prepareMessages }, (event) => {
      if (event.type === 'context_warning') warnings.push(event.message);
      if (event.type === 'compaction') compactions.push(event);
    });
    expect(result.stopReason).toBe('answered');
    expect(compactions).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^The prompt is about [\d,]+ tokens and nothing earlier could be compacted, over the [\d,]+ budget: the system prompt or the latest request is too large\.$/);
    expect(warnings[0]).not.toContain('after compaction');
  });
});
