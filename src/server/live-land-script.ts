/**
 * The live page's Land button: shown for the followed session when it is done and works in a git
 * worktree (its info carries `worktree`); it posts to POST /v1/sessions/{id}/land (the whole change,
 * the checks given by configuration) and shows the result: what was landed, or why nothing was.
 * Part of LIVE_PAGE_SCRIPT (it uses that script's `api`, `sessionPath`, `refreshList` and the turn
 * rendering's `el` and `textBlock`).
 */
export const LIVE_LAND_SCRIPT = String.raw`
function landArea(v) {
  v.landButton = el('button', { id: 'land', hidden: '', onclick: () => landSession(v) }, 'Land into the checkout');
  v.landResult = el('div', { id: 'land-result' });
  return el('div', { class: 'land' }, v.landButton, ' ', el('span', { id: 'land-note', class: 'note' }), v.landResult);
}

/** Shown while the session is done in a worktree and no land of it is on its way. */
function showLand(v, entry) {
  if (!v.landButton || !entry) return;
  const worktree = entry.info.worktree;
  const ready = entry.state === 'done' && worktree !== undefined;
  v.landButton.hidden = !ready;
  v.landButton.disabled = v.landing === true;
  document.getElementById('land-note').textContent = ready ? worktree.branch + (worktree.landed ? ' · landed ' + worktree.landed.slice(0, 12) : '') : '';
}

async function landSession(v) {
  v.landing = true;
  v.landButton.disabled = true;
  v.landResult.replaceChildren('landing…');
  try {
    const { status, body } = await api('POST', sessionPath(v.id) + '/land', {});
    if (!body || !body.outcome) v.landResult.replaceChildren('Not landed: ' + ((body && body.error) || 'HTTP ' + status));
    else if (body.outcome === 'landed' || body.outcome === 'nothing') v.landResult.replaceChildren(textBlock(body.text, 'land-text'));
    else v.landResult.replaceChildren(el('div', {}, 'Not landed: ' + body.reason), body.output ? textBlock(body.output, 'land-output') : '');
  } catch (error) {
    v.landResult.replaceChildren('Not landed: ' + error.message);
  }
  v.landing = false;
  void refreshList();
}
`;
