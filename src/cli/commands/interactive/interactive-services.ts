import type { AgentEvent } from '../../../contracts/events.js';
import { attachImages } from '../../../conversation/attach-images.js';
import { attachedLines, attachMentionedFiles, withAttachments } from '../../../mentions/attach-mentions.js';
import { PastedImages } from '../../prompt/pasted-images.js';
import type { ContextPolicy } from '../../../context/policy.js';
import { knownWindow } from '../../../context/model-windows.js';
import { costOf } from '../../../providers/pricing.js';
import { catalogModels } from '../../../providers/shared/model-catalog.js';
import { collectMemorySources } from '../../../memory/memory-sources.js';
import { findSession, listSessions } from '../../../session/list-sessions.js';
import { readSessionFile } from '../../../session/read-session.js';
import { spentIn, type Spent } from '../../../session/session-spent.js';
import type { CliArgs } from '../../args/cli-args.js';
import { interactiveRewind } from './interactive-rewind.js';
import { createCliAuthorize } from '../../setup/permission-setup.js';
import type { PreparedRun } from '../../setup/prepare-run.js';
import { newRunSession, openRunSession, type RunSession } from '../../prompt/run-session.js';
import { offeringsTable, serverTable } from '../mcp/mcp-table.js';
import { mayChangeFiles } from '../../../checkpoints/may-change-files.js';
import { backgroundJobs } from '../../../tools/coding/shell/background-jobs.js';
import { formatTokens } from '../../tui/status-line.js';
import { startRunPrompt } from '../../../conversation/command-prompt.js';
import { promptThroughHooks } from '../../../conversation/prompt-hooks.js';
import { continueAfterStop } from '../../../hooks/stop-hook.js';
import { commandUsage, formatSkills } from '../skills/format-skills.js';
import type { InteractiveServices } from '../../tui/services.js';
import { safeStderr } from '../../display/safe-output.js';
import { CacheWatch } from '../../../core/cache-watch.js';
import { LeftOutNotes } from '../../../core/left-out-notes.js';
import { cacheTtlMsOf } from '../../../context/cache-prices.js';
import { endSession } from '../../../hooks/session-end.js';

/**
 * The interactive session's services, from the same modules the one-shot CLI uses: the
 * permission policy, the context policy (and its /compact), the session store (recording,
 * /sessions, /resume) and the memory files. The session file is opened at the first event, so a
 * session that never sends anything leaves no file behind; --continue / --resume open it at once.
 */
export async function createInteractiveServices(
  args: CliArgs,
  prepared: PreparedRun,
  context: ContextPolicy,
): Promise<{ services: InteractiveServices; initialMessages: RunSession['messages']; recordRequest: RunSession['recordRequest']; endSession(): Promise<void> }> {
  const { workspace, settings, system } = prepared;
  let notify: ((text: string) => void) | undefined;
  const warn = (text: string) => (notify ? notify(`warning: ${text}`) : safeStderr.write(`vibe-agent: warning: ${text}\n`));
  const options = { workspace, system, warn };
  let session: RunSession | undefined = args.continue || args.resume !== undefined ? await openRunSession(args, options) : undefined;
  // Read once, when the screen first asks: what the resumed session had spent before this process.
  let resumedSpent: Spent | undefined;
  // A session file that cannot be created (a read-only or broken data directory) is reported once,
  // by the throw the interactive session shows; the conversation goes on unrecorded.
  let unrecordable = false;
  const record = (event: AgentEvent) => {
    if (args.noSession || unrecordable) return;
    if (!session) {
      try {
        session = newRunSession(args, options);
      } catch (error) {
        unrecordable = true;
        throw new Error(`this conversation is not being saved: ${(error as Error).message}`);
      }
      // Opening warns (once) and gives nothing back when the file cannot be created.
      if (!session) {
        unrecordable = true;
        return;
      }
    }
    session?.record(event);
  };

  const initialMessages = session?.messages;
  let hooksStarted = false;
  let cleared = false;
  const pasted = new PastedImages(process.cwd());
  const services: InteractiveServices = {
    authorize: (ask) => createCliAuthorize(settings, ask, undefined, { hooks: prepared.hooks, reviewer: prepared.reviewer }),
    prepareMessages: context.prepareMessages,
    cacheWatch: new CacheWatch({ ttlMs: cacheTtlMsOf(settings.cacheTtl) }),
    leftOutNotes: new LeftOutNotes(),
    onContextOverflow: context.onContextOverflow,
    contextForAgent: context.contextForAgent,
    onEvent: record,
    compact: async (messages, { model, signal }) => {
      const result = await context.compact(messages, { model, signal });
      if (!result.event) return { messages, compacted: false };
      // Asked for by the user, with room to spare: a failed summary must not drop their turns
      // (the automatic path drops them because the next request would not fit otherwise).
      if (result.event.fallback) throw new Error(`${result.event.fallback}. The conversation is unchanged.`);
      record(result.event);
      return { messages: result.messages, compacted: true, tokensBefore: result.event.tokensBefore, tokensAfter: result.event.tokensAfter };
    },
    listSessions: async () =>
      listSessions(workspace).map((s) => ({
        id: s.id,
        title: s.firstPrompt,
        detail: `${s.updatedAt.toISOString().slice(0, 16).replace('T', ' ')} · ${s.turns} turn${s.turns === 1 ? '' : 's'} · ${formatTokens(s.inputTokens + s.outputTokens)} tok`,
      })),
    resume: async (id) => {
      // Its lock is ours: reopening it would report this very process as "another run".
      const found = findSession(workspace, id);
      if (found.ok && found.session.id === session?.id) throw new Error(`this is the session you are in (${session.id}).`);
      const next = args.noSession ? undefined : await openRunSession({ ...args, resume: id, continue: false }, options);
      if (!next) throw new Error('sessions are off in this run (--no-session).');
      session?.close();
      session = next;
      return { id: next.id, messages: next.messages ?? [], spent: spentIn(readSessionFile(next.path).records) };
    },
    // The cleared conversation stays in its file as it was; what follows is a session of its own,
    // so --continue picks up the new conversation instead of replaying the cleared one.
    clear: () => {
      if (hooksStarted) void endSession(prepared.hooks, 'clear');
      session?.close();
      session = undefined;
      hooksStarted = false;
      cleared = true;
    },
    skills: () => formatSkills(prepared.skills.catalog.skills, prepared.commands.commands),
    customCommands: () => [
      ...prepared.commands.commands.map((command) => ({ name: command.name, usage: commandUsage(command), help: command.description ?? `(${command.origin})` })),
      ...prepared.mcp.promptCommands().map((command) => ({ name: command.name, usage: `${command.name} ${command.argumentHint}`.trim(), help: command.description ?? `(MCP server ${command.server})` })),
    ],
    startPrompt: async (text, { authorize, signal }) => {
      const started = await startRunPrompt(text, {
        commands: prepared.commands.commands,
        tools: prepared.tools,
        scope: prepared.skills.scope,
        authorize,
        workspace,
        signal,
        mcpPrompt: (typed) => prepared.mcp.expandPrompt(typed, prepared.settings.mcpWaitMs),
      });
      if (!started.ok) return started;
      const mentioned = await attachMentionedFiles(started.prompt === text ? text : '', { tools: prepared.tools, authorize, workspace, signal });
      if (!mentioned.ok) return mentioned;
      // SessionStart with the first prompt of each conversation, UserPromptSubmit with every one.
      const hooked = await promptThroughHooks(prepared.hooks, started.prompt, { id: session?.id, path: session?.path, resumed: initialMessages !== undefined, starts: !hooksStarted, source: cleared ? 'clear' : undefined });
      hooksStarted = true;
      if ('blocked' in hooked) return { ok: false, reason: `the UserPromptSubmit hook blocked the prompt: ${hooked.blocked}` };
      const attached = await attachImages({
        paths: pasted.pathsIn(text),
        preset: prepared.resolved.preset.name,
        protocol: prepared.resolved.preset.protocol,
        model: started.model ?? prepared.resolved.model,
      });
      if (!attached.ok) return { ok: false, reason: attached.reason };
      return { ok: true, prompt: withAttachments(hooked.input, mentioned.section), model: started.model, ...(attached.images.length + mentioned.images.length ? { images: [...attached.images, ...mentioned.images] } : {}), notes: attachedLines(mentioned.attached) };
    },
    // The same Stop handling as a one-shot run: a block sends its reason back, at most 3 times a prompt.
    afterRun: (reason, round) => continueAfterStop(prepared.hooks, reason, round, warn),
    imagePaste: (text) => pasted.paste(text),
    memory: async () => collectMemorySources({ workspace, cwd: process.cwd() }).map((source) => ({ path: source.path, content: source.text })),
    // Only a window we know (or the user set) is shown; a guess would make the percentage lie.
    contextWindow: (model) => prepared.contextWindow ?? knownWindow(model),
    // Priced from the published table, request by request at the model each went to.
    cost: (model, usage) => costOf(model, usage),
    spentSoFar: () => (resumedSpent ??= session ? spentIn(readSessionFile(session.path).records) : undefined),
    models: () => [prepared.resolved.model],
    modelCatalog: () => providerCatalog(prepared.resolved.preset.name, prepared.resolved.baseURL === prepared.resolved.preset.baseURL),
    backgroundJobs: () => backgroundJobs.list(),
    killBackgroundJob: (id) => backgroundJobs.kill(id),
    ...interactiveRewind({ workspace, system, session: () => session, warn, mayChangeFiles: (call) => mayChangeFiles(prepared.tools, call) }),
    setNotify: (next) => (notify = next),
    mcpServers: () => [...serverTable(prepared.mcp.status()), ...offeringsTable(prepared.mcp)],
    close: () => session?.close(),
  };
  // A request comes after its run's first event, which opened the file.
  return {
    services,
    initialMessages: session?.messages,
    recordRequest: (request) => session?.recordRequest(request),
    // SessionEnd pairs with the SessionStart that ran with the conversation's first prompt.
    endSession: () => (hooksStarted ? endSession(prepared.hooks, 'prompt_input_exit') : Promise.resolve()),
  };
}

/** The catalog's provider for each preset it lists; only at the preset's own endpoint (a proxy or local server serves its own names). */
const CATALOG_PROVIDERS: Record<string, string> = { openai: 'openai', anthropic: 'anthropic', google: 'google', mistral: 'mistral', deepseek: 'deepseek', groq: 'groq' };

function providerCatalog(preset: string, ownEndpoint: boolean): string[] | undefined {
  const id = CATALOG_PROVIDERS[preset];
  return id && ownEndpoint ? catalogModels(id) : undefined;
}
