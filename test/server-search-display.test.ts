/** The provider's web search: its config checked, its sources shown in the text output and the TUI. */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/contracts/events.js';
import { createTextRenderer } from '../src/cli/render-text.js';
import { createTheme } from '../src/cli/display/theme.js';
import { TurnView } from '../src/cli/tui/turn-view.js';
import { parseServerSearchConfig } from '../src/providers/shared/server-search.js';

const citations = [
  { url: 'https://nodejs.org/en/blog/release/v24.0.0', title: 'Node.js\n24.0.0' },
  { url: 'https://example.com/\u001b[31mred', citedText: 'x' },
];
const answer: AgentEvent[] = [
  { type: 'text_delta', turn: 1, text: 'Node 24 is out.' },
  { type: 'assistant_message', turn: 1, message: { role: 'assistant', content: 'Node 24 is out.', toolCalls: [], citations }, finishReason: 'stop' },
];

describe('"webSearch": { "service": "provider" } in the config', () => {
  it('takes the caps and one domain list, with defaults', () => {
    expect(parseServerSearchConfig({ service: 'provider' }, 20)).toEqual({ ok: true, options: { maxSearches: 20, maxUses: 5 } });
    expect(parseServerSearchConfig({ service: 'provider', maxUses: 2, maxSearches: 4, blockedDomains: ['example.com'] }, 20)).toEqual({ ok: true, options: { maxSearches: 4, maxUses: 2, blockedDomains: ['example.com'] } });
  });

  it.each([
    [{ service: 'provider', url: 'http://x' }, /unknown field url/],
    [{ service: 'provider', maxUses: 0 }, /maxUses" must be a whole number of at least 1, got 0/],
    [{ service: 'provider', maxSearches: 'many' }, /maxSearches" must be a whole number/],
    [{ service: 'provider', allowedDomains: 'nodejs.org' }, /allowedDomains" must be a list of domains/],
    [{ service: 'provider', allowedDomains: ['a b'] }, /allowedDomains" must be a list of domains/],
    [{ service: 'provider', allowedDomains: ['a.org'], blockedDomains: ['b.org'] }, /cannot both be set/],
  ])('refuses %j with a reason', (value, reason) => {
    const parsed = parseServerSearchConfig(value as Record<string, unknown>, 20);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).toMatch(reason);
  });
});

describe('sources after the answer', () => {
  it('the text output lists them after the answer, one line each, escape sequences shown and not obeyed', () => {
    for (const holdUntilWhole of [false, true]) {
      let out = '';
      let info = '';
      const render = createTextRenderer({ out: { write: (text: string) => (out += text) }, info: { write: (text: string) => (info += text) }, color: false, holdUntilWhole });
      for (const event of answer) render(event);
      expect(out).toBe('Node 24 is out.\n\nSources:\n1. Node.js 24.0.0 — https://nodejs.org/en/blog/release/v24.0.0\n2. https://example.com/\\e[31mred\n');
      expect(info).toBe('');
    }
  });

  it('the TUI commits them under the reply', () => {
    const committed: string[] = [];
    const view = new TurnView((lines) => committed.push(...lines), createTheme(false), () => 0);
    for (const event of answer) view.handle(event, 80);
    expect(committed.slice(-3)).toEqual(['Sources:', '1. Node.js 24.0.0 — https://nodejs.org/en/blog/release/v24.0.0', '2. https://example.com/\\e[31mred']);
  });
});
