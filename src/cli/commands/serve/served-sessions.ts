import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { openConversation, type ConversationCore } from '../../../conversation/open-conversation.js';
import type { SessionChoice } from '../../../conversation/session-file.js';
import { ConfigError } from '../../../providers/create-provider.js';
import type { ApiEvent, CreateSessionBody, Decision, SessionInfo } from '../../../server/api-schemas.js';
import { OpenRefused, type HostedSession, type SessionHost } from '../../../server/session-port.js';
import { eventJson } from '../../../session/event-json.js';
import { findSession } from '../../../session/list-sessions.js';
import { collectSecrets, createRedactor } from '../../../session/redact.js';
import type { ApprovalAnswer } from '../../../tools/approval.js';
import type { CliArgs } from '../../args/cli-args.js';
import { conversationParts } from '../../setup/conversation-parts.js';
import { sessionPolicy } from '../../setup/permission-setup.js';
import { prepareRun, type PreparedRun } from '../../setup/prepare-run.js';
import type { ServedIds } from './served-ids.js';
import { servedGoal } from './served-goal.js';
import { servedLand } from './served-land.js';
import { servedAgents } from './served-agents.js';

const ANSWERS: Record<Decision, ApprovalAnswer> = { allow: 'yes', deny: 'no', always: 'always' };

/**
 * The adapter between the server (src/server) and the conversation core: each hosted session is
 * one conversation, built from the prepared run exactly as the terminal's and an editor's are. Its
 * questions wait for a client's answer (nobody answering means nothing runs).
 */
export function servedSessions(args: CliArgs, served: ServedIds, env: NodeJS.ProcessEnv, warn: (text: string) => void): SessionHost {
  return {
    async open(request: CreateSessionBody) {
      const workspace = existingFolder(request.workspace);
      const session: SessionChoice = request.resume === undefined ? { kind: 'new' } : { kind: 'resume', path: storedPath(workspace, request.resume, env) };
      const settings: CliArgs = {
        ...args,
        cwd: workspace,
        ...(request.model ? { model: request.model } : {}),
        ...(request.provider ? { provider: request.provider } : {}),
        ...(request.permissionMode ? { permissionMode: request.permissionMode } : {}),
      };
      const hosted = await hostConversation(settings, session, env, warn);
      served.add({ id: hosted.id, workspace, path: hosted.path });
      return hosted;
    },
    async reopen(id) {
      const entry = served.get(id);
      if (!entry) return undefined;
      return hostConversation({ ...args, cwd: entry.workspace }, { kind: 'resume', path: entry.path }, env, warn);
    },
    known: () => served.ids(),
    agents: servedAgents(env),
  };
}

async function hostConversation(args: CliArgs, session: SessionChoice, env: NodeJS.ProcessEnv, warn: (text: string) => void): Promise<HostedSession & { path: string }> {
  let prepared: PreparedRun;
  try {
    prepared = await prepareRun(args, env);
  } catch (error) {
    if (error instanceof ConfigError) throw new OpenRefused(error.message);
    throw error;
  }
  let conversation: ConversationCore;
  try {
    conversation = await openConversation(
      conversationParts(prepared, {
        session,
        authorize: (ask) => sessionPolicy(prepared, { ask }),
        asks: true,
        warn,
        env,
      }),
    );
  } catch (error) {
    await prepared.mcp.close();
    throw new OpenRefused((error as Error).message, 409);
  }
  const path = conversation.state().path;
  if (path === undefined) {
    await conversation.close();
    await prepared.mcp.close();
    throw new OpenRefused('the session file could not be created, and a served session must be saved (its events are read from it)', 409);
  }
  // Questions asked in this process: an id seen but no longer pending was answered (409), any other is unknown (404).
  const asked = new Set<string>();
  // One subscription to the core per session: each event redacted once (as --json prints it), then handed to every client's stream.
  const redact = createRedactor(collectSecrets(env, [args.apiKey]));
  const listeners = new Set<(event: ApiEvent) => void>();
  conversation.subscribe((event) => {
    if (event.type === 'question') asked.add(event.id);
    if (listeners.size === 0) return;
    const shown = JSON.parse(eventJson(event, redact)) as ApiEvent;
    for (const listener of listeners) listener(shown);
  });
  let closed = false;
  const goal = servedGoal(conversation, prepared, env, warn);
  const info = (): SessionInfo => {
    const state = conversation.state();
    const worktree = land.worktree();
    return {
      id: conversation.id,
      workspace: prepared.workspace,
      status: closed ? 'closed' : state.running ? 'running' : 'idle',
      lastSeq: state.lastSeq,
      queued: state.queued,
      permissionMode: conversation.mode,
      pendingApprovals: conversation.questions.pending().map(({ id, request }) => ({ requestId: id, tool: request.tool, summary: request.summary, ...(request.detail ? { detail: request.detail } : {}), ...(request.always ? { always: request.always } : {}) })),
      ...(worktree ? { worktree } : {}),
    };
  };
  const land = servedLand({ id: conversation.id, info, events: () => conversation.events() as ReadonlyArray<{ type: string; reason?: unknown }> }, args, env);
  return {
    id: conversation.id,
    goal,
    land,
    workspace: prepared.workspace,
    path,
    info,
    prompt(text, mode, options = {}) {
      // A prompt carries the mode the sending terminal shows (plan mode, an approved plan's bounds).
      if (options.permissionMode) conversation.setMode(options.permissionMode, { by: 'server', ...(options.planScope ? { planScope: options.planScope } : {}) });
      conversation.prompt(text, { mode }).catch((error: unknown) => warn(`a prompt of session ${conversation.id} failed: ${(error as Error).message}`));
    },
    setMode(permissionMode, planScope) {
      conversation.setMode(permissionMode, { by: 'server', ...(planScope ? { planScope } : {}) });
      return conversation.mode;
    },
    interrupt() {
      const running = conversation.state().running;
      // An interrupt stops a running goal too (as cancelled), not only its current turn.
      void goal.cancel();
      conversation.interrupt();
      return running;
    },
    answer(requestId, decision) {
      if (conversation.questions.answer(requestId, ANSWERS[decision])) return 'accepted';
      return asked.has(requestId) ? 'answered' : 'unknown';
    },
    readAfter: async (after, limit) => conversation.events(after).slice(0, limit) as unknown as ApiEvent[],
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {
      closed = true;
      try {
        await goal.cancel();
        await conversation.close('other');
      } finally {
        await prepared.mcp.close();
      }
    },
  };
}

function existingFolder(path: string): string {
  const workspace = resolve(path);
  let folder = false;
  try {
    folder = statSync(workspace).isDirectory();
  } catch {
    // reported below
  }
  if (!folder) throw new OpenRefused(`the workspace ${workspace} is not a folder on this machine`);
  return workspace;
}

function storedPath(workspace: string, id: string, env: NodeJS.ProcessEnv): string {
  const found = findSession(workspace, id, env);
  if (!found.ok || found.session.id !== id) throw new OpenRefused(found.ok ? `no session ${id} in ${workspace}` : found.reason, 404);
  return found.session.path;
}
