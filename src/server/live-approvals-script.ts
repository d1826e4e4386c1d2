/**
 * The live page's approvals: a waiting question shown whole (tool, one line, arguments, diff or
 * command) with buttons that post the answer to POST /v1/sessions/{id}/approvals/{requestId}. The
 * first answer from any client wins; the card says whether it was this page's or another client's.
 * Part of LIVE_PAGE_SCRIPT (it uses that script's `api`, `sessionPath`, `refreshList` and the
 * turn rendering's `el` and `textBlock`).
 */
export const LIVE_APPROVALS_SCRIPT = String.raw`
const ANSWER_WORDS = { yes: 'allowed', no: 'denied', always: 'always allowed', allow: 'allowed', deny: 'denied' };

function askQuestion(v, event) {
  const request = event.request;
  const q = { id: event.id, request };
  let args = request.call ? request.call.arguments : '';
  try { args = JSON.stringify(JSON.parse(args), null, 2); } catch (error) { /* shown as it came */ }
  q.status = el('div', { class: 'approval-status' }, 'waiting for you');
  const button = (label, decision) => el('button', { class: 'answer', 'data-decision': decision, onclick: () => answer(v, q, decision) }, label);
  q.buttons = [button('Allow', 'allow'), button('Deny', 'deny'), ...(request.always ? [button('Always allow ' + request.always, 'always')] : [])];
  q.card = el('div', { class: 'approval', 'data-request': event.id },
    el('div', { class: 'approval-head' }, 'Approval ', el('code', {}, event.id), ': ', el('b', {}, request.tool), ' ', request.summary),
    el('div', { class: 'label' }, 'arguments'), textBlock(args, 'args'),
    request.detail ? [el('div', { class: 'label' }, 'detail'), textBlock(request.detail)] : '',
    el('div', { class: 'approval-buttons' }, q.buttons), q.status);
  v.questions.set(event.id, q);
  document.getElementById('approvals').append(q.card);
}

async function answer(v, q, decision) {
  for (const b of q.buttons) b.disabled = true;
  q.sending = true;
  q.status.textContent = 'sending…';
  try {
    const { status } = await api('POST', sessionPath(v.id) + '/approvals/' + encodeURIComponent(q.id), { decision });
    q.outcome = status === 200 ? 'here' : status === 409 || status === 404 ? 'elsewhere' : undefined;
    if (!q.outcome) q.status.textContent = 'not answered (HTTP ' + status + ')';
  } catch (error) {
    q.status.textContent = 'not answered: ' + error.message;
  }
  q.sending = false;
  if (q.outcome === 'here') q.answer = q.answer || decision;
  if (!q.outcome && !q.answer) for (const b of q.buttons) b.disabled = false;
  showAnswer(q);
  void refreshList();
}

function questionAnswered(v, event) {
  const q = v.questions.get(event.id);
  if (!q) return;
  // Answered before this page looked: nothing is waiting, so nothing is shown.
  if (event.seq <= v.liveAfter) {
    q.card.remove();
    v.questions.delete(event.id);
    return;
  }
  q.answer = event.answer;
  for (const b of q.buttons) b.disabled = true;
  showAnswer(q);
  void refreshList();
}

function showAnswer(q) {
  if (q.sending || (!q.answer && q.outcome !== 'elsewhere')) return;
  const word = q.answer ? ': ' + (ANSWER_WORDS[q.answer] || q.answer) : '';
  q.card.classList.add('answered');
  q.status.textContent = (q.outcome === 'here' ? 'answered here' : 'answered elsewhere') + word;
}
`;
