/**
 * The live page's script: the background sessions (as `vibe-agent agents` lists them) and the other sessions the server has open, each one's turns as its events stream, its waiting
 * approvals with buttons that answer them, and a Land button for a done session in a worktree. It
 * uses the server's own routes with the token the address's #fragment brought (GET /v1/agents, GET /v1/sessions, the
 * events stream, POST …/approvals/{id}, POST …/land) and draws turns with the trace page's rendering
 * (TURN_RENDER_SCRIPT), from turn objects it builds out of the events. Kept as a string module so the
 * bundled CLI carries it.
 */
import { TURN_RENDER_SCRIPT } from '../trace/turn-render-script.js';
import { LIVE_APPROVALS_SCRIPT } from './live-approvals-script.js';
import { LIVE_LAND_SCRIPT } from './live-land-script.js';
import { sessionState } from '../contracts/session-state.js';

export const LIVE_PAGE_SCRIPT = String.raw`
'use strict';
// What the turn rendering expects of its page: live turns hold their texts themselves.
const data = { messages: [] };
function text() { return undefined; }
function whenTextsLoaded(action) { action(); }
${TURN_RENDER_SCRIPT}
${LIVE_APPROVALS_SCRIPT}
${LIVE_LAND_SCRIPT}
const sessionState = ${sessionState.toString()};
const LIST_EVERY_MS = 1500;
const RECONNECT_MS = 1000;
const app = document.getElementById('app');
const say = (message) => document.getElementById('notice').replaceChildren(message);

/** The token comes once in the address's fragment (#token=…); it is moved out of the address bar at once. */
function takeToken() {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (match) {
    sessionStorage.setItem('vibe-agent-token', decodeURIComponent(match[1]));
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem('vibe-agent-token');
}
const token = takeToken();

async function api(method, path, body) {
  const headers = { authorization: 'Bearer ' + token, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, cache: 'no-store', body: body === undefined ? undefined : JSON.stringify(body) });
  if (response.status === 401) say('The server refused the token: open this page again with vibe-agent agents --page.');
  const json = response.status === 204 ? undefined : await response.json().catch(() => undefined);
  return { status: response.status, body: json };
}
const sessionPath = (id) => '/v1/sessions/' + encodeURIComponent(id);
const nameOf = (workspace) => workspace.split(/[\\/]/).filter(Boolean).pop() || workspace;
function eventSummary(event) {
  const text = event.reason || event.name || event.error || event.text || (event.request && event.request.tool) || '';
  return event.type + (text ? ' ' + String(text).replace(/\s+/g, ' ').slice(0, 60) : '');
}

// The agent list, now and then: the background sessions as vibe-agent agents shows them (GET /v1/agents,
// which reopens from its file one the server no longer holds), then the other sessions the server has
// open (GET /v1/sessions), whose newest events are read for their state when their last number moved.
const sessions = new Map();
let listTimer;
let listing = false;
let listAgain = false;
/** One refresh at a time: one asked for during another runs right after it. */
async function refreshList() {
  if (listing) return void (listAgain = true);
  listing = true;
  clearTimeout(listTimer);
  try {
    const agents = await api('GET', '/v1/agents');
    const open = await api('GET', '/v1/sessions');
    if (agents.status !== 200 || open.status !== 200) return;
    const infos = new Map(open.body.sessions.map((info) => [info.id, info]));
    const ids = [];
    for (const row of agents.body.agents) {
      const entry = sessions.get(row.id) || {};
      entry.info = infos.get(row.id) || infoOf(row);
      entry.name = row.name;
      entry.state = row.state;
      entry.lastEvent = row.lastEvent ? row.lastEvent.type + (row.lastEvent.summary ? ' ' + row.lastEvent.summary : '') : row.problem || '';
      sessions.set(row.id, entry);
      ids.push(row.id);
    }
    for (const info of open.body.sessions) {
      if (ids.includes(info.id)) continue;
      const entry = sessions.get(info.id) || { tailSeq: -1 };
      entry.info = info;
      entry.name = nameOf(info.workspace);
      if (entry.tailSeq !== info.lastSeq) await readTail(entry);
      entry.state = sessionState(info, entry.lastStop, entry.lastType);
      sessions.set(info.id, entry);
      ids.push(info.id);
    }
    drawList(ids);
  } catch (error) {
    say('The server did not answer (' + error.message + '); trying again.');
  } finally {
    listing = false;
    if (listAgain) {
      listAgain = false;
      void refreshList();
    } else listTimer = setTimeout(refreshList, LIST_EVERY_MS);
  }
}
/** What the page needs of a session's info, from its background row when the server could not open it. */
function infoOf(row) {
  const worktree = row.worktree && row.branch ? { name: row.name, branch: row.branch, path: row.worktree, ...(row.landed ? { landed: row.landed } : {}) } : undefined;
  return { id: row.id, workspace: row.workspace, lastSeq: row.lastEvent ? row.lastEvent.seq : 0, ...(worktree ? { worktree } : {}) };
}
async function readTail(entry) {
  const { info } = entry;
  const { status, body } = await api('GET', sessionPath(info.id) + '/events?after=' + Math.max(0, info.lastSeq - 200) + '&limit=500');
  if (status !== 200) return;
  const stops = body.events.filter((event) => event.type === 'stop');
  if (stops.length) entry.lastStop = stops[stops.length - 1].reason;
  const last = body.events[body.events.length - 1];
  if (last) {
    entry.lastType = last.type;
    entry.lastEvent = eventSummary(last);
  }
  entry.tailSeq = info.lastSeq;
}
function drawList(ids) {
  const rows = ids.map((id) => {
    const { info, name, state, lastEvent } = sessions.get(id);
    const pick = () => select(id);
    return el('tr', { class: 'agent' + (view && view.id === id ? ' selected' : ''), 'data-id': id, onclick: pick },
      el('td', { class: 'name' }, el('button', { class: 'link', onclick: pick }, name)),
      el('td', { class: 'state state-' + state.replace(' ', '-') }, state),
      el('td', { class: 'last' }, lastEvent || ''),
      el('td', { class: 'id' }, id),
      el('td', { class: 'workspace' }, info.workspace));
  });
  const table = document.getElementById('agents');
  table.replaceChildren(el('tr', {}, ['name', 'state', 'last event', 'id', 'workspace'].map((h) => el('th', {}, h))), ...rows);
  document.getElementById('agents-count').textContent = ids.length === 1 ? '1 session' : ids.length + ' sessions';
  if (view) {
    const entry = sessions.get(view.id);
    if (entry) document.getElementById('session-state').textContent = entry.state;
    showLand(view, entry);
  }
}

// One session at a time is followed (a browser holds few connections per server).
let view;
function select(id) {
  if (view && view.id === id) return;
  if (view) view.stop.abort();
  const entry = sessions.get(id);
  view = { id, stop: new AbortController(), agents: new Map(), turns: [], questions: new Map(), dirty: new Set(), liveAfter: entry ? entry.info.lastSeq : 0, drawTimer: undefined };
  document.getElementById('session').replaceChildren(
    el('h2', {}, 'Session ', el('span', { id: 'session-id' }, id), ' · ', el('span', { id: 'session-state' }, entry ? entry.state : '')),
    el('div', { class: 'note' }, entry ? entry.info.workspace : ''),
    landArea(view),
    el('div', { id: 'approvals' }),
    el('div', { id: 'turns' }));
  for (const row of document.querySelectorAll('tr.agent')) row.classList.toggle('selected', row.dataset.id === id);
  showLand(view, entry);
  void follow(view);
}

/** The session's events over SSE (fetch, for the Authorization header), from its first; reconnects after the last one read. */
async function follow(v) {
  let after = 0;
  while (!v.stop.signal.aborted) {
    try {
      const response = await fetch(sessionPath(v.id) + '/events?after=' + after, { headers: { authorization: 'Bearer ' + token, accept: 'text/event-stream' }, cache: 'no-store', signal: v.stop.signal });
      if (response.status === 401 || response.status === 404) return say(response.status === 404 ? 'That session is no longer on this server.' : 'The server refused the token.');
      if (response.ok) {
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const lines = frame.split('\n').filter((line) => line.startsWith('data:'));
            if (!lines.length) continue;
            const event = JSON.parse(lines.map((line) => line.slice(5).replace(/^ /, '')).join('\n'));
            after = event.seq;
            onEvent(v, event);
          }
        }
      }
    } catch (error) {
      if (v.stop.signal.aborted) return;
    }
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
  }
}

function agentOf(v, path) {
  if (!v.agents.has(path)) v.agents.set(path, { path, run: 0, model: '', current: undefined, count: 0 });
  return v.agents.get(path);
}
function startTurn(v, agent, number) {
  agent.count += 1;
  const turn = { seq: agent.count, run: agent.run, turn: number, agent: agent.path, model: agent.model, tools: [], retries: [], repairs: [], compactions: [], notes: [], complete: false, live: true };
  agent.current = turn;
  v.turns.push(turn);
  v.newest = turn;
  document.getElementById('turns').append(turn.row = el('details', { class: 'turn' }));
  return turn;
}
function callOf(turn, id, name) {
  let call = turn.tools.find((one) => one.id === id);
  if (!call) turn.tools.push(call = { id, name: name || '', arguments: '', permission: 'not run' });
  return call;
}

/** One event into the turn objects the trace page draws (what build-trace does for a saved session, for live events). */
function onEvent(v, event) {
  const agent = agentOf(v, event.agent || 'main');
  const turn = agent.current || (event.type === 'turn_start' ? undefined : agent.last);
  switch (event.type) {
    case 'run_start':
      agent.run += 1;
      agent.model = event.model || agent.model;
      if (agent.path === 'main') document.getElementById('turns').append(el('div', { class: 'run' }, el('span', { class: 'label' }, 'prompt ' + agent.run + ' '), textBlock(String(event.input || ''), 'text task')));
      return;
    case 'turn_start':
      agent.last = startTurn(v, agent, event.turn);
      break;
    case 'text_delta':
    case 'reasoning_delta': {
      if (!turn) return;
      const reply = turn.reply || (turn.reply = { text: '', finishReason: 'streaming…', toolCalls: 0 });
      if (event.type === 'text_delta') reply.text += event.text;
      else reply.reasoning = (reply.reasoning || '') + event.text;
      break;
    }
    case 'assistant_message': {
      if (!turn) return;
      const m = event.message;
      turn.reply = { text: m.content, finishReason: event.finishReason || '', toolCalls: m.toolCalls.length };
      if (m.reasoning) turn.reply.reasoning = m.reasoning;
      if (m.citations && m.citations.length) turn.reply.citations = m.citations;
      for (const call of m.toolCalls) callOf(turn, call.id, call.name).arguments = call.arguments;
      break;
    }
    case 'tool_call_start':
      if (!turn) return;
      callOf(turn, event.call.id, event.call.name).arguments = event.call.arguments;
      break;
    case 'tool_call_end': {
      if (!turn) return;
      const call = callOf(turn, event.id, event.name);
      call.status = event.status;
      call.isError = event.isError === true;
      call.output = String(event.output === undefined ? '' : event.output);
      if (typeof event.durationMs === 'number') call.durationMs = event.durationMs;
      call.permission = event.status === 'denied' ? 'denied' : 'allowed';
      break;
    }
    case 'usage':
      if (!turn) return;
      if (typeof event.cost === 'number') turn.cost = (turn.cost || 0) + event.cost;
      if (turn.usage) turn.extraUsage = event.usage;
      else turn.usage = event.usage;
      if (event.cache) turn.cache = event.cache;
      break;
    case 'retry':
      if (!turn) return;
      turn.retries.push({ attempt: event.attempt, delayMs: event.delayMs, error: String(event.error) });
      break;
    case 'turn_end':
      if (!turn) return;
      turn.complete = true;
      break;
    case 'stop':
      if (turn) turn.stop = { reason: String(event.reason), ...(typeof event.error === 'string' ? { error: event.error } : {}) };
      agent.current = undefined;
      break;
    case 'question':
      return askQuestion(v, event);
    case 'question_answered':
      return questionAnswered(v, event);
    case 'compaction':
    case 'context_warning':
    case 'protocol_error':
    case 'interrupted':
    case 'prompt_refused':
    case 'warning':
      if (!turn) return;
      turn.notes.push(event.type === 'compaction' ? 'compacted: ' + fmt(event.tokensBefore) + ' → ' + fmt(event.tokensAfter) + ' tokens' : eventSummary(event));
      break;
    default:
      return;
  }
  if (turn) v.dirty.add(turn);
  if (agent.current) v.dirty.add(agent.current);
  if (!v.drawTimer) v.drawTimer = setTimeout(() => draw(v), 30);
  if (event.type === 'stop' || event.type === 'turn_start') void refreshList();
}

/** Redraws the turns that changed; a row keeps whether it was open, and the newest turn opens itself. */
function draw(v) {
  v.drawTimer = undefined;
  if (v !== view) return;
  for (const turn of v.dirty) {
    const open = turn.drawn ? turn.row.open : turn === v.newest;
    const fresh = turnView(turn, undefined);
    turn.row.replaceWith(fresh);
    turn.row = fresh;
    turn.drawn = true;
    if (open) fresh.open = true;
  }
  v.dirty.clear();
}

app.append(
  el('h1', {}, 'Sessions on this server'),
  el('div', { id: 'notice', class: 'note' }),
  el('div', { class: 'note' }, el('span', { id: 'agents-count' }, ''), ' · choose one to follow its turns and answer its approvals'),
  el('table', { id: 'agents' }),
  el('section', { id: 'session' }));
if (token) void refreshList();
else say('No token: open this page with vibe-agent agents --page (the token comes in the address, after #).');
`;
