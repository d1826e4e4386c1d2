/**
 * The trace page's own script: plain DOM, no framework. It reads the data from the page's
 * `<script type="application/json" id="trace-data">`, draws the chart with uPlot and renders
 * each turn's body only when it is opened, so a 1,000-turn session opens quickly.
 * Kept as a string module so the bundled CLI carries it (no file to find at run time).
 */
import { dollarTicks } from './axis-ticks.js';
import { TURN_RENDER_SCRIPT } from './turn-render-script.js';

export const PAGE_SCRIPT = String.raw`
'use strict';
const data = JSON.parse(document.getElementById('trace-data').textContent);
let texts;
/** A message's text; the texts block is parsed on first need (it holds most of a large session's bytes). */
function text(id) {
  if (!texts) {
    const block = document.getElementById('trace-texts');
    if (!block || document.readyState === 'loading') return '';
    texts = JSON.parse(block.textContent);
  }
  return texts[id];
}
/** Runs now, or once the texts block (after this script) has been read. */
function whenTextsLoaded(action) {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', action, { once: true });
  else action();
}
${TURN_RENDER_SCRIPT}
const dollarTicks = ${dollarTicks.toString()};

function allCalls(turn) {
  return turn.tools.flatMap((c) => [c, ...(c.subagent ? c.subagent.turns.flatMap(allCalls) : [])]);
}

const haystacks = new Map();
function haystack(turn) {
  if (!haystacks.has(turn)) {
    const parts = [turn.reply ? replyText(turn.reply) + ' ' + (turn.reply.reasoning || '') : '', ...turn.notes, ...turn.repairs, ...turn.retries.map((r) => r.error)];
    for (const call of allCalls(turn)) parts.push(call.name, call.arguments, callOutput(call) || '');
    for (const c of turn.compactions) parts.push(c.summary);
    // The request's newest messages (its last id run): what this turn added to the conversation.
    const newest = turn.request.ids[turn.request.ids.length - 1];
    if (newest) for (let i = 0; i < newest[1]; i++) parts.push(text(newest[0] + i));
    haystacks.set(turn, parts.join('\n').toLowerCase());
  }
  return haystacks.get(turn);
}

function header() {
  const t = data.totals;
  const s = data.session;
  const rows = [
    ['session', s.id], ['workspace', s.workspace], ['file', s.file], ['created', s.createdAt],
    ['context window', data.contextWindow ? fmt(data.contextWindow) + ' tokens (' + data.contextWindowSource + ')' : 'unknown'],
    ['requests', data.requests === 'recorded'
      ? 'as sent (from the request records)'
      : 'rebuilt from the history (this session has no request records): tool outputs the context policy capped or stubbed are shown whole'],
    ['runs', fmt(t.runs)], ['turns', fmt(t.turns) + (t.subagentTurns ? ' (+' + count(t.subagentTurns, 'turn') + ' in subagents)' : '')],
    ['input tokens', fmt(t.inputTokens) + ' (' + fmt(t.cachedInputTokens) + ' cached, ' + fmt(t.inputTokens - t.cachedInputTokens) + ' new)'],
    ['output tokens', fmt(t.outputTokens) + (t.reasoningTokens ? ' (' + fmt(t.reasoningTokens) + ' reasoning)' : '')],
    ['cost', money(t.cost)], ['tool calls', fmt(t.toolCalls) + ' (' + fmt(t.toolErrors) + ' failed or denied)'],
    ['retries', fmt(t.retries)], ['compactions', fmt(t.compactions)],
  ];
  const table = el('table', { id: 'totals' }, rows.map(([k, v]) => el('tr', {}, el('th', {}, k), el('td', {}, v))));
  const skipped = data.skipped.count || data.skipped.notes.length
    ? el('div', { id: 'skipped', class: 'bad' }, el('b', {}, (data.skipped.count === 1 ? '1 unreadable line or record was' : fmt(data.skipped.count) + ' unreadable lines or records were') + ' skipped; the rest is shown.'), el('ul', {}, data.skipped.notes.map((n) => el('li', {}, n))))
    : '';
  return [outcomeView(data.outcome), table, skipped];
}

/** The task and how it ended, first: what a reader opens a trace to find out. */
function outcomeView(o) {
  const stop = o.stop;
  const ended = !stop ? el('td', { class: 'note' }, 'no stop was recorded (the run was cut off, or is still going)')
    : o.answer !== undefined ? el('td', {}, textBlock(o.answer, 'text answer'))
    : el('td', { class: stop.reason === 'answered' || stop.reason === 'plan' ? '' : 'bad' }, 'stopped: ' + stop.reason + (stop.error ? ': ' + stop.error : ''));
  return el('table', { id: 'outcome' },
    el('tr', {}, el('th', {}, 'task'), o.task !== undefined ? el('td', {}, textBlock(o.task, 'text task')) : el('td', { class: 'note' }, 'no prompt was recorded')),
    el('tr', {}, el('th', {}, o.answer !== undefined ? 'answer' : 'outcome'), ended));
}

function drawChart(target) {
  const turns = data.turns.filter((t) => t.agent === 'main');
  if (!turns.length || typeof uPlot === 'undefined') return;
  const x = turns.map((t) => t.seq);
  const prompt = turns.map((t) => (t.usage ? t.usage.inputTokens : t.request.tokens));
  const cached = turns.map((t) => (t.usage ? t.usage.cachedInputTokens : null));
  const cost = turns.map((t) => (t.cost === undefined ? null : t.cost));
  const series = [{ label: 'turn' }, { label: 'prompt tokens', stroke: '#2f6fdf', width: 2, scale: 'tokens' }, { label: 'cached', stroke: '#5aa469', scale: 'tokens' }];
  const columns = [x, prompt, cached];
  if (data.contextWindow) {
    series.push({ label: 'context window', stroke: '#d9534f', dash: [6, 4], scale: 'tokens', points: { show: false } });
    columns.push(x.map(() => data.contextWindow));
  }
  series.push({ label: 'cost $', stroke: '#b8860b', scale: '$', value: (u, v) => (v === null ? '-' : money(v)) });
  columns.push(cost);
  const options = {
    width: Math.max(320, target.clientWidth - 8), height: 260, series,
    scales: { x: { time: false } },
    axes: [{ label: 'turn', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] }, { scale: 'tokens', label: 'tokens', size: 70 }, { scale: '$', side: 1, label: 'cost $', size: 80, values: dollarTicks, grid: { show: false } }],
  };
  const chart = new uPlot(options, columns, target);
  window.addEventListener('resize', () => chart.setSize({ width: Math.max(320, target.clientWidth - 8), height: 260 }));
}

function filters(rows) {
  const tools = [...new Set(data.turns.flatMap((t) => allCalls(t).map((c) => c.name)))].sort();
  const search = el('input', { id: 'search', type: 'search', placeholder: 'search text, tools, results' });
  const errors = el('input', { id: 'filter-errors', type: 'checkbox' });
  const tool = el('select', { id: 'filter-tool' }, el('option', { value: '' }, 'any tool'), tools.map((name) => el('option', { value: name }, name)));
  const turn = el('input', { id: 'filter-turn', type: 'number', min: '1', placeholder: 'turn #' });
  const shown = el('span', { id: 'shown-count' });
  const apply = () => {
    const query = search.value.trim().toLowerCase();
    if (query && document.readyState === 'loading') return whenTextsLoaded(apply);
    const wanted = turn.value ? Number(turn.value) : undefined;
    let count = 0;
    data.turns.forEach((t, i) => {
      const calls = allCalls(t);
      const ok = (!errors.checked || calls.some((c) => c.isError || c.status === 'denied'))
        && (!tool.value || calls.some((c) => c.name === tool.value))
        && (wanted === undefined || t.seq === wanted)
        && (!query || haystack(t).includes(query));
      rows[i].hidden = !ok;
      if (ok) count++;
    });
    shown.textContent = count + ' of ' + data.turns.length + ' turns shown';
  };
  for (const input of [search, errors, tool, turn]) input.addEventListener('input', apply);
  apply();
  return el('div', { id: 'filters' }, search, el('label', {}, errors, ' tool errors only'), tool, turn, shown);
}

const lastOfAgent = new Map();
const rows = data.turns.map((t) => {
  const row = turnView(t, lastOfAgent.get(t.agent));
  lastOfAgent.set(t.agent, t);
  return row;
});
const chart = el('div', { id: 'chart' });
document.getElementById('app').append(el('h1', {}, 'Session ' + data.session.id), ...header(), chart, filters(rows), el('div', { id: 'turns' }, rows));
drawChart(chart);
`;
