import { describe, expect, it } from 'vitest';
import { ConversationState } from '../src/cli/tui/conversation-state.js';
import { renderStatusLine, type StatusInfo } from '../src/cli/tui/status-line.js';
import { stripAnsi, visibleWidth } from '../src/cli/display/text-width.js';
import { createTheme } from '../src/cli/display/theme.js';

const plain = createTheme(false);
const info: StatusInfo = {
  model: 'gpt-4.1-mini',
  total: { inputTokens: 12_000, outputTokens: 3_400, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  contextTokens: 32_000,
  contextWindow: 128_000,
  costUsd: 0.0123,
  turn: 3,
  maxTurns: 50,
  state: 'working',
};

describe('the status line', () => {
  it('shows model, state, tokens, context fill, cost and turn count', () => {
    expect(renderStatusLine(info, 100, plain)).toBe('gpt-4.1-mini · working · 15k tok · ctx 25% · $0.0123 · turn 3/50');
  });

  it('leaves out what is unknown: no window, no cost', () => {
    const { contextWindow: _w, costUsd: _c, ...rest } = info;
    expect(renderStatusLine(rest, 100, plain)).toBe('gpt-4.1-mini · working · 15k tok · turn 3/50');
  });

  it('shows the share of input read from the prompt cache once the provider reports cache use', () => {
    const cached = { ...info, total: { ...info.total, cachedInputTokens: 11_160, cacheWriteTokens: 600 } };
    expect(renderStatusLine(cached, 100, plain)).toBe('gpt-4.1-mini · working · 15k tok · cache 93% · ctx 25% · $0.0123 · turn 3/50');
    // Dropped before the token count in a narrow terminal.
    expect(renderStatusLine(cached, 60, plain)).toBe('gpt-4.1-mini · working · 15k tok · ctx 25% · turn 3/50');
  });

  it('drops the least important parts first in narrow terminals and never exceeds the width', () => {
    expect(renderStatusLine(info, 40, plain)).toBe('gpt-4.1-mini · working · ctx 25%');
    expect(renderStatusLine(info, 30, plain)).toBe('gpt-4.1-mini · working');
    for (const width of [5, 10, 12, 20, 33, 47, 60]) expect(visibleWidth(renderStatusLine(info, width, plain))).toBeLessThanOrEqual(width);
    expect(renderStatusLine(info, 8, plain)).toBe('gpt-4.1…');
  });

  it('is dim with colour on and free of escapes with NO_COLOR', () => {
    const coloured = renderStatusLine(info, 100, createTheme(true));
    expect(coloured.startsWith('\x1b[2m')).toBe(true);
    expect(stripAnsi(coloured)).toBe(renderStatusLine(info, 100, plain));
    expect(renderStatusLine(info, 100, plain)).not.toContain('\x1b');
  });
});

describe('ConversationState, feeding the status line from events', () => {
  const usage = (inputTokens: number, outputTokens: number, extra: Record<string, number> = {}) => ({ inputTokens, outputTokens, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, ...extra });

  it('sums tokens, takes the context fill from the latest request, and sums the cost the core recorded on each usage event', () => {
    const state = new ConversationState('m', [], { contextWindow: () => 10_000 });
    state.track({ type: 'turn_start', turn: 2 });
    state.track({ type: 'usage', turn: 2, usage: usage(1_000, 200), total: usage(1_000, 200), cost: 0.05 });
    expect(renderStatusLine(state.status(5, undefined), 100, plain)).toBe('m · 1.2k tok · ctx 12% · $0.0500 · turn 2/5');
    state.track({ type: 'usage', turn: 2, usage: usage(3_000, 500), total: usage(4_000, 700), cost: 0.25 });
    expect(renderStatusLine(state.status(5, 'working'), 100, plain)).toBe('m · working · 4.7k tok · ctx 35% · $0.3000 · turn 2/5');
    // A request nobody could price makes the total unknown, rather than a figure that is too low.
    state.track({ type: 'usage', turn: 2, usage: usage(100, 10), total: usage(4_100, 710) });
    expect(state.cost()).toBeUndefined();
  });

  it('a resumed session starts from what it had spent, and adds what it spends next', () => {
    const state = new ConversationState('m', [], { spentSoFar: () => ({ usage: usage(1_200, 300), cost: 0.0042 }) });
    expect(renderStatusLine(state.status(5, undefined), 100, plain)).toBe('m · 1.5k tok · $0.0042 · turn 0/5');
    state.track({ type: 'usage', turn: 1, usage: usage(2_000, 500), total: usage(2_000, 500), cost: 0.007 });
    expect(state.usage.inputTokens).toBe(3_200);
    expect(state.cost()).toBeCloseTo(0.0112, 10);
    state.clear([]);
    expect(state.usage.inputTokens).toBe(0);
  });

  it('uses a window the provider revealed, and forgets the fill when the history is replaced', () => {
    const state = new ConversationState('m', [], { contextWindow: () => undefined, cost: () => undefined });
    state.track({ type: 'usage', turn: 1, usage: usage(4_000, 96), total: usage(4_000, 96) });
    expect(renderStatusLine(state.status(5, undefined), 100, plain)).toBe('m · 4.1k tok · turn 0/5'); // no window known: no percentage
    state.track({ type: 'context_warning', turn: 1, message: 'smaller', contextWindow: 8_192 });
    expect(renderStatusLine(state.status(5, undefined), 100, plain)).toBe('m · 4.1k tok · ctx 50% · turn 0/5');
    state.replaceMessages([]);
    expect(renderStatusLine(state.status(5, undefined), 100, plain)).toBe('m · 4.1k tok · turn 0/5');
  });
});
