import { describe, expect, it } from 'vitest';
import { renderStatusLine, type StatusInfo } from '../src/cli/tui/status-line.js';
import { stripAnsi, visibleWidth } from '../src/cli/tui/text-width.js';
import { createTheme } from '../src/cli/tui/theme.js';

const plain = createTheme(false);
const info: StatusInfo = {
  model: 'gpt-4.1-mini',
  total: { inputTokens: 12_000, outputTokens: 3_400, cachedInputTokens: 0, reasoningTokens: 0 },
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
