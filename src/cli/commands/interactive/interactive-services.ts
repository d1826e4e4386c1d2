import { knownWindow } from '../../../context/model-windows.js';
import { costOf } from '../../../providers/pricing.js';
import { catalogModels } from '../../../providers/shared/model-catalog.js';
import { readSessionFile } from '../../../session/read-session.js';
import { spentIn, type Spent } from '../../../session/session-spent.js';
import { collectMemorySources } from '../../../memory/memory-sources.js';
import { isConversation, listSessions } from '../../../session/list-sessions.js';
import { backgroundJobs } from '../../../tools/coding/shell/background-jobs.js';
import type { CliArgs } from '../../args/cli-args.js';
import { safeStderr } from '../../display/safe-output.js';
import { PastedImages } from '../../prompt/pasted-images.js';
import type { PreparedRun } from '../../setup/prepare-run.js';
import type { InteractiveServices } from '../../tui/services.js';
import { formatTokens } from '../../tui/status-line.js';
import { offeringsTable, serverTable } from '../mcp/mcp-table.js';
import { commandUsage, formatSkills } from '../skills/format-skills.js';
import { InteractiveConversations } from './interactive-conversations.js';
import { interactiveRewind } from './interactive-rewind.js';
import { unfinishedGoal } from '../../../conversation/goal/goal-resume.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';
import type { GoalSetup } from '../../setup/goal-setup.js';

/**
 * The interactive session's services: its conversations (opened by the conversation core, like
 * every front end's), the context policy's /compact, the session store's /sessions and /resume,
 * the memory files, skills, MCP servers, background jobs and rewind points.
 */
export async function createInteractiveServices(args: CliArgs, prepared: PreparedRun): Promise<InteractiveServices> {
  const { workspace } = prepared;
  let notify: ((text: string) => void) | undefined;
  const warn = (text: string) => (notify ? notify(`warning: ${text}`) : safeStderr.write(`vibe-agent: warning: ${text}\n`));
  const conversations = await InteractiveConversations.open(args, prepared, warn);
  // Read once, when the screen first asks: what the resumed session had spent before this process.
  const resumed = args.continue || args.resume !== undefined;
  let resumedSpentRead = false;
  let resumedSpent: Spent | undefined;
  const pasted = new PastedImages(process.cwd());
  let goals: Promise<GoalSetup> | undefined;
  return {
    conversation: () => conversations.conversation,
    permissions: conversations.permissions,
    typedPermissions: conversations.typedPermissions,
    clear: () => conversations.clear(),
    resume: async (id) => {
      const next = await conversations.resume(id);
      const path = next.state().path;
      return { id: next.id, messages: [...next.history()], ...(path ? { spent: spentIn(readSessionFile(path).records) } : {}) };
    },
    compact: async (messages, { model, signal }) => {
      const result = await prepared.context.compact(messages, { model, signal });
      if (!result.event) return { messages, compacted: false };
      // Asked for by the user, with room to spare: a failed summary must not drop their turns
      // (the automatic path drops them because the next request would not fit otherwise).
      if (result.event.fallback) throw new Error(`${result.event.fallback}. The conversation is unchanged.`);
      conversations.conversation.note(result.event);
      return { messages: result.messages, compacted: true, tokensBefore: result.event.tokensBefore, tokensAfter: result.event.tokensAfter };
    },
    listSessions: async () =>
      listSessions(workspace).filter(isConversation).map((s) => ({
        id: s.id,
        title: s.firstPrompt,
        detail: `${s.updatedAt.toISOString().slice(0, 16).replace('T', ' ')} · ${s.turns} turn${s.turns === 1 ? '' : 's'} · ${formatTokens(s.inputTokens + s.outputTokens)} tok`,
      })),
    skills: () => formatSkills(prepared.skills.catalog.skills, prepared.commands.commands),
    customCommands: () => [
      ...prepared.commands.commands.map((command) => ({ name: command.name, usage: commandUsage(command), help: command.description ?? `(${command.origin})` })),
      ...prepared.mcp.promptCommands().map((command) => ({ name: command.name, usage: `${command.name} ${command.argumentHint}`.trim(), help: command.description ?? `(MCP server ${command.server})` })),
    ],
    imagePaste: (text) => pasted.paste(text),
    imagePaths: (prompt) => pasted.pathsIn(prompt),
    memory: async () => collectMemorySources({ workspace, cwd: process.cwd() }).map((source) => ({ path: source.path, content: source.text })),
    // Only a window we know (or the user set) is shown; a guess would make the percentage lie.
    contextWindow: (model) => prepared.contextWindow ?? knownWindow(model),
    // Priced from the published table, request by request at the model each went to.
    cost: (model, usage) => costOf(model, usage),
    spentSoFar: () => {
      if (!resumedSpentRead) {
        resumedSpentRead = true;
        const path = resumed ? conversations.conversation.state().path : undefined;
        resumedSpent = path ? spentIn(readSessionFile(path).records) : undefined;
      }
      return resumedSpent;
    },
    models: () => [prepared.resolved.model],
    modelCatalog: () => providerCatalog(prepared.resolved.preset.name, prepared.resolved.baseURL === prepared.resolved.preset.baseURL),
    backgroundJobs: () => backgroundJobs.list(),
    killBackgroundJob: (id) => backgroundJobs.kill(id),
    ...interactiveRewind({ workspace, system: prepared.system, conversation: () => conversations.conversation }),
    goals: {
      // The judge is set up at the first /goal, once for the session (a missing key is reported then).
      setup: () => (goals ??= import('../../setup/goal-setup.js').then(({ goalSetup }) => goalSetup(prepared.settings, prepared, agentEnvironment(), warn)).catch((error: unknown) => ((goals = undefined), Promise.reject(error)))),
      unfinished: () => unfinishedGoal(conversations.conversation.events()),
    },
    setNotify: (next) => (notify = next),
    mcpServers: () => [...serverTable(prepared.mcp.status()), ...offeringsTable(prepared.mcp)],
    // The server's client loads only at the first /bg.
    moveToBackground: async (handover) => (await import('./move-to-background.js')).moveToBackground(conversations, args, workspace, handover, agentEnvironment()),
    close: () => conversations.close(),
  };
}

/** The catalog's provider for each preset it lists; only at the preset's own endpoint (a proxy or local server serves its own names). */
const CATALOG_PROVIDERS: Record<string, string> = { openai: 'openai', anthropic: 'anthropic', google: 'google', mistral: 'mistral', deepseek: 'deepseek', groq: 'groq' };

function providerCatalog(preset: string, ownEndpoint: boolean): string[] | undefined {
  const id = CATALOG_PROVIDERS[preset];
  return id && ownEndpoint ? catalogModels(id) : undefined;
}
