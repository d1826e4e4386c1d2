import { randomUUID } from 'node:crypto';
import type { AcpSession, AcpSessionSetup } from '../../../acp/acp-host.js';
import { CredentialsMissing } from '../../../acp/acp-host.js';
import { withSubagents } from '../../../agents/subagents.js';
import { withCheckpoints } from '../../../checkpoints/with-checkpoints.js';
import type { AgentEvent } from '../../../contracts/events.js';
import type { Message } from '../../../contracts/messages.js';
import type { AgentOptions } from '../../../core/agent-options.js';
import { runAgent } from '../../../core/loop.js';
import { imageLimitsFor } from '../../../images/image-limits.js';
import { PLAN_MODE_PROMPT } from '../../../core/system-prompt.js';
import { imagesRefusedBy } from '../../../providers/image-capability.js';
import { ConfigError } from '../../../providers/create-provider.js';
import { findSession } from '../../../session/list-sessions.js';
import { collectSecrets, createRedactor } from '../../../session/redact.js';
import { createSession, withSystemPrompt, type OpenedSession } from '../../../session/session-store.js';
import { resumeSession } from '../../../session/resume-session.js';
import { resolveInWorkspace } from '../../../workspace/resolve-path.js';
import type { CliArgs } from '../../args/cli-args.js';
import { safeStderr } from '../../display/safe-output.js';
import { createCliAuthorize } from '../../setup/permission-setup.js';
import { prepareRun, type PreparedRun } from '../../setup/prepare-run.js';
import { promptThroughHooks } from '../../prompt/prompt-hooks.js';
import { endSession } from '../../../hooks/session-end.js';

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
  const { workspace, settings, system } = prepared;
  let opened: OpenedSession | undefined;
  try {
    opened = openStored(workspace, setup.loadId, env, args.apiKey);
  } catch (error) {
    await prepared.mcp.close();
    throw error;
  }
  let messages: Message[] | undefined = opened?.messages.length ? withSystemPrompt(opened.messages, system) : undefined;
  if (messages) (await import('../../../tools/builtin/todo.js')).restoreTodos(prepared.todos, messages);
  opened?.writer.append({ type: 'system_prompt', content: system });
  const id = opened?.id ?? setup.loadId ?? randomUUID();
  const authorize = createCliAuthorize(settings, setup.ask, undefined, { hooks: prepared.hooks, reviewer: prepared.reviewer });
  const planning = settings.permissionMode === 'plan';
  let recording = opened !== undefined;
  const record = (event: AgentEvent) => {
    if (!recording) return;
    try {
      opened!.writer.record(event);
    } catch (error) {
      recording = false;
      warn(`the session file ${opened!.path} could not be written (${(error as Error).message}); this session is no longer being saved.`);
    }
  };

  return {
    id,
    workspace,
    history: () => messages ?? [],
    tool: (name) => prepared.tools.get(name),
    confine: (path, forWrite) => resolveInWorkspace(path, { workspace, extraRoots: [...settings.addDirs, ...(forWrite ? [] : prepared.skills.readRoots())], allowSecrets: settings.allowSecrets, forWrite }),
    images: { refused: imagesRefusedBy(prepared.resolved.preset.name, prepared.resolved.model), limits: imageLimitsFor(prepared.resolved.preset.protocol) },
    async *prompt(input, signal, images) {
      const hooked = await promptThroughHooks(prepared.hooks, input, { id, resumed: messages !== undefined });
      if ('blocked' in hooked) throw new Error(`the UserPromptSubmit hook blocked the prompt: ${hooked.blocked}`);
      const options: AgentOptions = {
        provider: prepared.provider,
        model: prepared.resolved.model,
        input: hooked.input,
        ...(images?.length ? { images } : {}),
        tools: prepared.tools,
        system: planning ? `${system}\n\n${PLAN_MODE_PROMPT}` : system,
        ...(planning ? { plan: true } : {}),
        ...(messages ? { messages } : {}),
        maxTurns: prepared.maxTurns,
        temperature: prepared.temperature,
        workspace,
        authorize,
        signal,
        prepareMessages: prepared.context.prepareMessages,
        onContextOverflow: prepared.context.onContextOverflow,
        ...(prepared.maxCost !== undefined ? { maxCost: prepared.maxCost } : {}),
      };
      const run = withCheckpoints(runAgent(prepared.subagents ? withSubagents(options, prepared.subagents) : options), {
        workspace,
        session: () => (opened && recording ? { id: opened.id, path: opened.path } : undefined),
        warn,
        env,
      });
      let reason = 'aborted';
      for (;;) {
        const next = await run.next();
        if (next.done) {
          messages = next.value.messages;
          break;
        }
        record(next.value);
        if (next.value.type === 'stop') reason = next.value.reason;
        yield next.value;
      }
      await prepared.hooks?.run('Stop', { stop_hook_active: false, stop_reason: reason });
    },
    async close() {
      try {
        await endSession(prepared.hooks, 'other');
        opened?.close();
      } finally {
        await prepared.mcp.close();
      }
    },
  };
}

/** The session file: the stored one to continue, or a new one (a session that cannot be saved still runs). */
function openStored(workspace: string, loadId: string | undefined, env: NodeJS.ProcessEnv, apiKey: string | undefined): OpenedSession | undefined {
  const redact = createRedactor(collectSecrets(env, [apiKey]));
  if (loadId !== undefined) {
    const found = findSession(workspace, loadId, env);
    if (!found.ok || found.session.id !== loadId) throw new Error(found.ok ? `No session ${loadId} in ${workspace}.` : found.reason);
    const opened = resumeSession(found.session.path, { redact });
    for (const warning of opened.warnings) warn(warning);
    return opened;
  }
  try {
    return createSession({ workspace, env, redact });
  } catch (error) {
    warn(`the session file could not be created (${(error as Error).message}); this session is not saved.`);
    return undefined;
  }
}
