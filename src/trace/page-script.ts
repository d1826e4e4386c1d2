/**
 * The trace page's own script: plain DOM, no framework. It reads the data from the page's
 * `<script type="application/json" id="trace-data">`, draws the chart with uPlot and renders
 * each turn's body only when it is opened, so a 1,000-turn session opens quickly.
 * Kept as a string module so the bundled CLI carries it (no file to find at run time).
 */
import { dollarTicks } from './axis-ticks.js';

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
const replyText = (reply) => (reply.text !== undefined ? reply.text : text(reply.messageId));
const callOutput = (call) => (call.output !== undefined ? call.output : call.outputId !== undefined ? text(call.outputId) : undefined);
const fmt = (n) => (n === undefined || n === null ? '-' : Number(n).toLocaleString('en-US'));
const money = (n) => (n === undefined ? 'unknown' : '$' + (n < 0.01 ? n.toFixed(4) : n.toFixed(2)));
const PREVIEW = 2000;
const dollarTicks = ${dollarTicks.toString()};
/** "1 turn", "2 turns", "1 retry", "3 retries". */
const count = (n, one, many) => fmt(n) + ' ' + (n === 1 ? one : many || one + 's');

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat(Infinity)) if (child !== undefined && child !== null && child !== false) node.append(child);
  return node;
}

/** A reply's web sources; only http(s) addresses become links. */
function sourcesList(citations) {
  if (!citations || !citations.length) return '';
  const item = (c) => el('li', {}, /^https?:\/\//i.test(c.url) ? el('a', { href: c.url, rel: 'noreferrer noopener', target: '_blank' }, c.title || c.url) : (c.title || c.url), c.title ? ' ' + c.url : '', c.citedText ? el('div', { class: 'note' }, '“' + c.citedText + '”') : '');
  return el('details', { open: '' }, el('summary', {}, 'Sources (' + citations.length + ')'), el('ol', {}, citations.map(item)));
}

/** A block of text, cut at PREVIEW characters with a button for the rest. */
function textBlock(text, cls) {
  const pre = el('pre', { class: cls || 'text' }, text.length > PREVIEW ? text.slice(0, PREVIEW) : text);
  if (text.length <= PREVIEW) return pre;
  const more = el('button', { class: 'more', onclick: () => { pre.textContent = text; more.remove(); } }, 'show all ' + fmt(text.length) + ' characters');
  return el('div', {}, pre, more);
}

function idsOf(runs) {
  const ids = [];
  for (const [first, count] of runs) for (let i = 0; i < count; i++) ids.push(first + i);
  return ids;
}

function messageView(id) {
  const m = data.messages[id];
  const head = el('div', { class: 'msg-head' }, el('span', { class: 'role role-' + m.role }, m.role + (m.name ? ' · ' + m.name : '')), ' ', fmt(m.tokens) + ' tokens', m.isError ? el('span', { class: 'bad' }, ' error') : '');
  const body = [];
  if (m.reasoning) body.push(el('details', {}, el('summary', {}, 'reasoning'), textBlock(m.reasoning)));
  if (text(id)) body.push(textBlock(text(id)));
  for (const call of m.toolCalls || []) body.push(el('div', { class: 'call-line' }, 'calls ' + call.name + ' ', el('code', {}, call.arguments.slice(0, 300))));
  return el('div', { class: 'msg' }, head, body);
}

function usageLine(turn) {
  const u = turn.usage;
  const r = turn.request;
  const parts = ['request ' + (r.sent ? 'as sent' : 'rebuilt') + ': ' + fmt(r.count) + ' messages' + (r.tools !== undefined ? ', ' + fmt(r.tools) + ' tool schemas' : '') + ', ~' + fmt(r.tokens) + ' tokens (estimated)'];
  if (u) parts.push('reported: ' + fmt(u.inputTokens) + ' input (' + fmt(u.cachedInputTokens) + ' cached, ' + fmt(u.inputTokens - u.cachedInputTokens) + ' new), ' + fmt(u.outputTokens) + ' output' + (u.reasoningTokens ? ', ' + fmt(u.reasoningTokens) + ' reasoning' : '') + (u.estimated ? ' (estimated)' : ''));
  if (turn.cache) parts.push('prompt cache: ' + fmt(turn.cache.read) + ' read, ' + fmt(turn.cache.written) + ' written, ' + fmt(turn.cache.uncached) + ' uncached' + (turn.cache.why ? ' · miss: ' + turn.cache.why : ''));
  if (turn.extraUsage) parts.push('other requests this turn: ' + fmt(turn.extraUsage.inputTokens) + ' input, ' + fmt(turn.extraUsage.outputTokens) + ' output');
  if (turn.cost !== undefined) parts.push('cost ' + money(turn.cost));
  return el('div', { class: 'usage' }, parts.join(' · '));
}

function requestView(turn, previous) {
  const ids = idsOf(turn.request.ids);
  const seen = new Set(previous ? idsOf(previous.request.ids) : []);
  const fresh = ids.filter((id) => !seen.has(id));
  const list = el('div', { class: 'messages' }, fresh.map(messageView));
  const all = el('button', { class: 'more', onclick: () => { list.replaceChildren(...ids.map(messageView)); all.remove(); } }, 'show the whole request (' + fmt(ids.length) + ' messages)');
  return el('section', { class: 'request' }, el('h4', {}, 'Request' + (turn.request.sent ? ' (as sent)' : ' (rebuilt)') + ': ' + fmt(fresh.length) + ' new of ' + fmt(ids.length) + ' messages'), list, ids.length > fresh.length ? all : '');
}

function compactionView(c) {
  return el('section', { class: 'compaction' },
    el('h4', {}, 'Compaction: ' + fmt(c.tokensBefore) + ' → ' + fmt(c.tokensAfter) + ' tokens, ' + count(c.dropped, 'message') + ' dropped' + (c.fallback ? ' (fallback: ' + c.fallback + ')' : '')),
    el('details', {}, el('summary', {}, 'replaced (' + count(c.replaced.length, 'message') + ')'), c.replaced.map(messageView)),
    el('details', {}, el('summary', {}, 'by (' + count(c.inserted.length, 'message') + ')'), c.inserted.map(messageView)));
}

function reviewView(r) {
  const words = ['auto mode: ' + r.tier + ' ' + r.verdict];
  if (r.reviewer) words.push('reviewer ' + r.reviewer);
  if (r.cost !== undefined) words.push('$' + r.cost.toFixed(6));
  if (r.handedBack) words.push('handed back');
  return el('div', { class: 'review ' + (r.verdict === 'deny' ? 'bad' : 'good') }, words.join(' · ') + ': ' + r.reason, r.digest ? el('div', { class: 'label' }, 'input ' + r.digest) : '');
}

function toolView(call) {
  const bad = call.isError || call.status === 'denied';
  const permission = String(call.permission);
  const head = el('div', { class: 'tool-head' }, el('b', {}, call.name), ' · ', el('span', { class: bad ? 'bad' : 'good' }, call.status || 'no result'), ' · ',
    el('span', { class: 'permission ' + (permission === 'denied' ? 'bad' : permission === 'allowed' ? 'good' : 'neutral') }, 'permission ' + permission),
    call.durationMs !== undefined ? ' · ' + fmt(call.durationMs) + ' ms' : '');
  const parts = [head];
  if (call.review) parts.push(reviewView(call.review));
  parts.push(el('div', { class: 'label' }, 'arguments'), textBlock(call.arguments, 'args'));
  const output = callOutput(call);
  if (output !== undefined) parts.push(el('div', { class: 'label' }, 'result'), textBlock(output, bad ? 'text bad-text' : 'text'));
  if (call.subagent) parts.push(el('div', { class: 'subagent' }, el('h4', {}, 'Subagent ' + call.subagent.agent + ': ' + count(call.subagent.turns.length, 'turn')), call.subagent.turns.map((t, i) => turnView(t, call.subagent.turns[i - 1]))));
  return el('div', { class: 'tool' }, parts);
}

function turnBody(turn, previous) {
  return [
    turn.notes.map((note) => el('div', { class: 'note' }, note)),
    turn.retries.map((r) => el('div', { class: 'retry' }, 'retry ' + r.attempt + ' after ' + fmt(r.delayMs) + ' ms: ' + r.error)),
    turn.repairs.length ? el('div', { class: 'repair' }, 'history repaired: ' + turn.repairs.join('; ')) : '',
    turn.compactions.map(compactionView),
    usageLine(turn),
    requestView(turn, previous),
    turn.reply ? el('section', { class: 'reply' }, el('h4', {}, 'Reply (' + (turn.reply.finishReason || 'no finish reason') + ')'), turn.reply.reasoning ? el('details', {}, el('summary', {}, 'reasoning'), textBlock(turn.reply.reasoning)) : '', replyText(turn.reply) ? textBlock(replyText(turn.reply)) : '', sourcesList(turn.reply.citations)) : el('div', { class: 'note' }, 'No reply was recorded for this turn.'),
    turn.tools.length ? el('section', { class: 'tools' }, el('h4', {}, 'Tool calls'), turn.tools.map(toolView)) : '',
    turn.stop ? el('div', { class: turn.stop.error ? 'bad' : 'note' }, 'stopped: ' + turn.stop.reason + (turn.stop.error ? ': ' + turn.stop.error : '')) : '',
  ];
}

function turnSummary(turn) {
  const errors = turn.tools.filter((c) => c.isError || c.status === 'denied').length;
  const prompt = turn.usage ? turn.usage.inputTokens : turn.request.tokens;
  const bits = [
    el('span', { class: 'seq' }, '#' + turn.seq), ' ',
    turn.agent !== 'main' ? turn.agent + ' · ' : '', 'run ' + turn.run + ' turn ' + turn.turn + ' · ',
    el('span', { class: 'prompt-tokens' }, fmt(prompt) + ' prompt tokens'),
    turn.usage ? ' (' + fmt(turn.usage.cachedInputTokens) + ' cached)' : ' (estimated)',
    turn.usage ? ' · ' + fmt(turn.usage.outputTokens) + ' out' : '',
    turn.cost !== undefined ? ' · ' + money(turn.cost) : '',
    turn.tools.length ? ' · ' + turn.tools.map((c) => c.name).join(', ') : '',
    errors ? el('span', { class: 'bad' }, ' · ' + count(errors, 'tool error')) : '',
    turn.retries.length ? el('span', { class: 'warn' }, ' · ' + count(turn.retries.length, 'retry', 'retries')) : '',
    turn.compactions.length ? el('span', { class: 'warn' }, ' · compacted') : '',
    turn.repairs.length ? el('span', { class: 'warn' }, ' · repaired') : '',
    turn.stop && turn.stop.error ? el('span', { class: 'bad' }, ' · ' + turn.stop.reason) : '',
    !turn.complete ? el('span', { class: 'warn' }, ' · unfinished') : '',
  ];
  return el('summary', {}, bits);
}

/** A turn as a collapsed row; its body is built the first time it is opened. */
function turnView(turn, previous) {
  const row = el('details', { class: 'turn', 'data-seq': String(turn.seq) }, turnSummary(turn));
  row.addEventListener('toggle', () => {
    if (!row.open || row.dataset.rendered) return;
    row.dataset.rendered = '1';
    whenTextsLoaded(() => row.append(el('div', { class: 'body' }, turnBody(turn, previous))));
  });
  return row;
}

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
