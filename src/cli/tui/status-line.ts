import type { Usage } from '../../contracts/messages.js';
import type { Theme } from '../display/theme.js';
import { visibleWidth } from '../display/text-width.js';
import { cacheShare } from './cache-share.js';
import { formatCost } from '../display/format-cost.js';

export interface StatusInfo {
  model: string;
  /** Tokens over the whole session. */
  total: Usage;
  /** Input tokens of the latest request: how full the context is. */
  contextTokens?: number;
  /** The model's context window, when known. */
  contextWindow?: number;
  /** Session cost in US dollars, when known. */
  costUsd?: number;
  /** Model requests in the current (or last) run, and the limit. */
  turn: number;
  maxTurns: number;
  /** A short state word: "ready", "working", "approval". */
  state?: string;
  /** Background shell jobs still running. */
  background?: number;
  /** The permission mode when it is not the default ("plan mode", "auto-edit", "ask+plan"). */
  mode?: string;
  /** What Ctrl-O does to the subagent blocks on screen. */
  expandHint?: string;
  /** The goal being pursued: turns, cost and time so far against its caps. */
  goal?: string;
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/**
 * One line at the bottom: model · tokens · cache % · context % · cost · turn n/limit. Parts that are
 * unknown are left out; in a narrow terminal the least important parts are dropped first, and
 * the model name is cut last.
 */
export function renderStatusLine(info: StatusInfo, width: number, t: Theme): string {
  const parts: Array<{ text: string; priority: number }> = [];
  parts.push({ text: info.model, priority: 0 });
  if (info.state) parts.push({ text: info.state, priority: 1 });
  if (info.goal) parts.push({ text: info.goal, priority: 0.5 });
  const tokens = info.total.inputTokens + info.total.outputTokens;
  parts.push({ text: `${formatTokens(tokens)} tok`, priority: 3 });
  const cached = cacheShare(info.total);
  if (cached) parts.push({ text: `cache ${cached}`, priority: 3.2 });
  if (info.contextWindow && info.contextTokens !== undefined) {
    const percent = Math.min(100, Math.round((info.contextTokens / info.contextWindow) * 100));
    parts.push({ text: `ctx ${percent}%`, priority: 2 });
  }
  if (info.costUsd !== undefined) parts.push({ text: formatCost(info.costUsd), priority: 4 });
  parts.push({ text: `turn ${info.turn}/${info.maxTurns}`, priority: 2.5 });
  if (info.background) parts.push({ text: `${info.background} bg`, priority: 1.5 });
  if (info.mode) parts.push({ text: `${info.mode} (⇧Tab)`, priority: 1.2 });
  if (info.expandHint) parts.push({ text: info.expandHint, priority: 3.5 });

  const separator = ' · ';
  const fits = (list: typeof parts) => visibleWidth(list.map((p) => p.text).join(separator)) <= width;
  let kept = [...parts];
  while (!fits(kept) && kept.length > 1) {
    const drop = kept.reduce((worst, part) => (part.priority > worst.priority ? part : worst), kept[0]!);
    if (drop.priority === 0) break;
    kept = kept.filter((part) => part !== drop);
  }
  let line = kept.map((p) => p.text).join(separator);
  if (visibleWidth(line) > width) line = `${line.slice(0, Math.max(0, width - 1))}…`;
  return t.dim(line);
}
