/**
 * How a turn is drawn, shared by the trace page (a saved session) and the server's live page
 * (src/server/live-page-script.ts), which builds the same turn objects (TraceTurn) from live events.
 * The page that includes it defines, before it: `data.messages` (the message table), `text(id)`
 * (a message's text) and `whenTextsLoaded(action)`. A live turn has no `request` (the events do not
 * carry it) and is `live`: unfinished reads "in progress".
 */
export const TURN_RENDER_SCRIPT = String.raw`
const replyText = (reply) => (reply.text !== undefined ? reply.text : text(reply.messageId));
const callOutput = (call) => (call.output !== undefined ? call.output : call.outputId !== undefined ? text(call.outputId) : undefined);
const fmt = (n) => (n === undefined || n === null ? '-' : Number(n).toLocaleString('en-US'));
const money = (n) => (n === undefined ? 'unknown' : '$' + (n < 0.01 ? n.toFixed(4) : n.toFixed(2)));
const PREVIEW = 2000;
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
  const parts = r ? ['request ' + (r.sent ? 'as sent' : 'rebuilt') + ': ' + fmt(r.count) + ' messages' + (r.tools !== undefined ? ', ' + fmt(r.tools) + ' tool schemas' : '') + ', ~' + fmt(r.tokens) + ' tokens (estimated)'] : [];
  if (u) parts.push('reported: ' + fmt(u.inputTokens) + ' input (' + fmt(u.cachedInputTokens) + ' cached, ' + fmt(u.inputTokens - u.cachedInputTokens) + ' new), ' + fmt(u.outputTokens) + ' output' + (u.reasoningTokens ? ', ' + fmt(u.reasoningTokens) + ' reasoning' : '') + (u.estimated ? ' (estimated)' : ''));
  if (turn.cache) parts.push('prompt cache: ' + fmt(turn.cache.read) + ' read, ' + fmt(turn.cache.written) + ' written, ' + fmt(turn.cache.uncached) + ' uncached' + (turn.cache.why ? ' · miss: ' + turn.cache.why : ''));
  if (turn.extraUsage) parts.push('other requests this turn: ' + fmt(turn.extraUsage.inputTokens) + ' input, ' + fmt(turn.extraUsage.outputTokens) + ' output');
  if (turn.cost !== undefined) parts.push('cost ' + money(turn.cost));
  return parts.length ? el('div', { class: 'usage' }, parts.join(' · ')) : '';
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
    turn.request ? requestView(turn, previous) : '',
    turn.reply ? el('section', { class: 'reply' }, el('h4', {}, 'Reply (' + (turn.reply.finishReason || 'no finish reason') + ')'), turn.reply.reasoning ? el('details', {}, el('summary', {}, 'reasoning'), textBlock(turn.reply.reasoning)) : '', replyText(turn.reply) ? textBlock(replyText(turn.reply)) : '', sourcesList(turn.reply.citations)) : el('div', { class: 'note' }, turn.live && !turn.complete ? 'No reply yet.' : 'No reply was recorded for this turn.'),
    turn.tools.length ? el('section', { class: 'tools' }, el('h4', {}, 'Tool calls'), turn.tools.map(toolView)) : '',
    turn.stop ? el('div', { class: turn.stop.error ? 'bad' : 'note' }, 'stopped: ' + turn.stop.reason + (turn.stop.error ? ': ' + turn.stop.error : '')) : '',
  ];
}

function turnSummary(turn) {
  const errors = turn.tools.filter((c) => c.isError || c.status === 'denied').length;
  const prompt = turn.usage ? turn.usage.inputTokens : turn.request ? turn.request.tokens : undefined;
  const bits = [
    el('span', { class: 'seq' }, '#' + turn.seq), ' ',
    turn.agent !== 'main' ? turn.agent + ' · ' : '', 'run ' + turn.run + ' turn ' + turn.turn,
    prompt !== undefined ? [' · ', el('span', { class: 'prompt-tokens' }, fmt(prompt) + ' prompt tokens')] : '',
    turn.usage ? ' (' + fmt(turn.usage.cachedInputTokens) + ' cached)' : prompt !== undefined ? ' (estimated)' : '',
    turn.usage ? ' · ' + fmt(turn.usage.outputTokens) + ' out' : '',
    turn.cost !== undefined ? ' · ' + money(turn.cost) : '',
    turn.tools.length ? ' · ' + turn.tools.map((c) => c.name).join(', ') : '',
    errors ? el('span', { class: 'bad' }, ' · ' + count(errors, 'tool error')) : '',
    turn.retries.length ? el('span', { class: 'warn' }, ' · ' + count(turn.retries.length, 'retry', 'retries')) : '',
    turn.compactions.length ? el('span', { class: 'warn' }, ' · compacted') : '',
    turn.repairs.length ? el('span', { class: 'warn' }, ' · repaired') : '',
    turn.stop && turn.stop.error ? el('span', { class: 'bad' }, ' · ' + turn.stop.reason) : '',
    !turn.complete ? el('span', { class: 'warn' }, turn.live ? ' · in progress' : ' · unfinished') : '',
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
`;
