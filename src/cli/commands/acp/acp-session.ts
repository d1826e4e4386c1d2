import type { AcpSession, AcpSessionSetup } from '../../../acp/acp-host.js';
import { CredentialsMissing } from '../../../acp/acp-host.js';
import { imageLimitsFor } from '../../../images/image-limits.js';
import { imagesRefusedBy } from '../../../providers/image-capability.js';
import { ConfigError } from '../../../providers/create-provider.js';
import { findSession } from '../../../session/list-sessions.js';
import { resolveInWorkspace } from '../../../workspace/resolve-path.js';
import type { CliArgs } from '../../args/cli-args.js';
import { safeStderr } from '../../display/safe-output.js';
import { sessionPolicy } from '../../setup/permission-setup.js';
import { prepareRun, type PreparedRun } from '../../setup/prepare-run.js';
import { openConversation, type ConversationCore } from '../../../conversation/open-conversation.js';
import { agentEventOf, promptEvents } from '../../../conversation/prompt-events.js';
import type { SessionChoice } from '../../../conversation/session-file.js';
import { conversationParts } from '../../setup/conversation-parts.js';
import { editorMode } from './editor-mode.js';

const warn = (text: string) => safeStderr.write(`vibe-agent: warning: ${text}\n`);

/**
 * One editor session, run the way a terminal session is: the same prepared run (settings, tools,
 * MCP, hooks, memory), the same permission policy (its questions go to the editor), the same loop
 * and the same session file, so `vibe-agent --resume ID` continues it in a terminal too.
 */
export async function openAcpSession(args: CliArgs, setup: AcpSessionSetup, env: NodeJS.ProcessEnv): Promise<AcpSession> {
  let prepared: PreparedRun;
  try {
    prepared = await prepareRun({ ...args, cwd: setup.cwd }, env, setup.files ? { files: setup.files } : {});
  } catch (error) {
    if (error instanceof ConfigError) throw new CredentialsMissing(error.message);
    throw error;
  }
  for (const entry of setup.mcpServers) prepared.mcp.start(entry, true);
  const { workspace, settings } = prepared;
  let conversation: ConversationCore;
  try {
    conversation = await openConversation(
      conversationParts(prepared, {
        session: storedChoice(workspace, setup.loadId, env),
        authorize: (ask) => sessionPolicy(prepared, { ask }),
        asks: true,
        warn,
        env,
      }),
    );
  } catch (error) {
    await prepared.mcp.close();
    throw error;
  }
  conversation.questions.attach((question, signal) => setup.ask(question.request, signal));

  const session: Omit<AcpSession, keyof ReturnType<typeof editorMode>> = {
    id: conversation.id,
    workspace,
    history: () => conversation.history(),
    tool: (name) => prepared.tools.get(name),
    confine: (path, forWrite) => resolveInWorkspace(path, { workspace, extraRoots: [...settings.addDirs, ...(forWrite ? [] : prepared.skills.readRoots())], allowSecrets: settings.allowSecrets, forWrite }),
    images: { refused: imagesRefusedBy(prepared.resolved.preset.name, prepared.resolved.model), limits: imageLimitsFor(prepared.resolved.preset.protocol) },
    async *prompt(input, signal, images) {
      const events = promptEvents(conversation, input, { signal, ...(images?.length ? { images } : {}) });
      for (let step = await events.next(); ; step = await events.next()) {
        if (step.done) {
          if (step.value.reason === 'refused') throw new Error(step.value.refusal!.reason);
          return;
        }
        const event = agentEventOf(step.value);
        if (event) yield event;
      }
    },
    async close() {
      try {
        await conversation.close('other');
      } finally {
        await prepared.mcp.close();
      }
    },
  };
  // Object.assign keeps editorMode's `mode` a getter (a spread would copy its value once).
  return Object.assign(editorMode(conversation), session);
}

/** The session file: the stored one to continue, or a new one (a session that cannot be saved still runs). */
function storedChoice(workspace: string, loadId: string | undefined, env: NodeJS.ProcessEnv): SessionChoice {
  if (loadId === undefined) return { kind: 'new' };
  const found = findSession(workspace, loadId, env);
  if (!found.ok || found.session.id !== loadId) throw new Error(found.ok ? `No session ${loadId} in ${workspace}.` : found.reason);
  return { kind: 'resume', path: found.session.path };
}
