import type { CliArgs } from '../../args/cli-args.js';
import type { BackgroundHandover } from '../../tui/services.js';
import { addBackgroundEntry } from '../background/background-registry.js';
import { watchForEnd } from '../background/notify-end.js';
import { ensureServer } from '../background/server-address.js';
import type { InteractiveConversations } from './interactive-conversations.js';

/** What the server is asked when /bg stopped a turn: the turn's work so far is in the session, this goes on from there. */
export const CARRY_ON_PROMPT = 'This session was just moved to the background while you were working on my last request, which stopped there. Carry on with it from where it stopped.';

/**
 * /bg: the terminal closes its conversation first (one writer per session file: its lock is
 * released before the server takes it), then the server opens the session from its file in the
 * terminal's mode and model, a stopped turn is carried on and prompts typed meanwhile follow. Any
 * failure before the server holds it reopens the session here.
 */
export async function moveToBackground(conversations: InteractiveConversations, args: CliArgs, workspace: string, handover: BackgroundHandover, env: NodeJS.ProcessEnv): Promise<string[]> {
  const { id: localId, path } = await conversations.handOver();
  let server: Awaited<ReturnType<typeof ensureServer>>;
  let id: string;
  try {
    server = await ensureServer(env);
    const created = await server.client.POST('/v1/sessions', {
      body: { workspace, model: handover.model, permissionMode: handover.mode, ...(args.provider ? { provider: args.provider } : {}), ...(path ? { resume: localId } : {}) },
    });
    if (!created.data) throw new Error(`the session server refused the session (${created.response.status}: ${created.error?.error ?? 'no reason given'})`);
    id = created.data.id;
  } catch (error) {
    await conversations.takeBack(path);
    throw new Error(`${(error as Error).message}; the session stays in this terminal`);
  }
  const name = id.slice(-8);
  addBackgroundEntry(env, { id, name, repo: workspace, workspace, createdAt: new Date().toISOString() });
  const mode = { permissionMode: handover.mode, ...(handover.planScope ? { planScope: { files: handover.planScope.files, commands: handover.planScope.commands } } : {}) };
  const prompts = [...(handover.carryOn ? [CARRY_ON_PROMPT] : []), ...handover.queued];
  if (prompts.length && handover.before.length) prompts[0] = [...handover.before, prompts[0]].join('\n\n');
  const unsent: string[] = [];
  for (const text of prompts) {
    const sent = await server.client.POST('/v1/sessions/{id}/prompts', { params: { path: { id } }, body: { text, mode: 'queue', ...mode } });
    if (!sent.data) unsent.push(text);
  }
  const what = handover.carryOn ? 'its stopped turn carries on there' : 'it waits there for a prompt';
  // As with --bg: told when the run it goes on with ends (nothing runs there until a prompt comes otherwise).
  const notifies = prompts.length > unsent.length ? watchForEnd(id, env) : undefined;
  return [
    `Moved to the background: ${name} (session ${id}); ${what}${server.started ? ` (the session server started: ${server.url})` : ''}.`,
    ...(handover.queued.length ? [`${handover.queued.length} prompt${handover.queued.length === 1 ? '' : 's'} typed meanwhile ${unsent.length ? 'were not all' : 'went'} with it.`] : []),
    ...unsent.map((text) => `Not sent (the server refused it): ${text}`),
    ...(!prompts.length && handover.before.length ? [`The output of ${handover.before.length} !command${handover.before.length === 1 ? '' : 's'} was not sent: it was waiting for a prompt.`] : []),
    ...(notifies ? [`When it ends: a notification ${notifies}, and its report in vibe-agent agents.`] : []),
    `Attach: vibe-agent attach ${name} · list: vibe-agent agents · follow: vibe-agent logs ${name} -f · stop: vibe-agent stop ${name}`,
  ];
}
