import { mayChangeFiles, writesOnlyThroughFileTools } from '../../checkpoints/may-change-files.js';
import { cacheTtlMsOf } from '../../context/cache-prices.js';
import type { ConversationParts } from '../../conversation/conversation-parts.js';
import type { SessionChoice } from '../../conversation/session-file.js';
import type { PermissionPolicy } from '../../permissions/permission-policy.js';
import { agentEnvironment } from '../../secrets/held-secrets.js';
import { collectSecrets, createRedactor } from '../../session/redact.js';
import type { AskApproval } from '../../tools/approval.js';
import type { PreparedRun } from './prepare-run.js';
import { startTelemetryIfWanted } from './telemetry-setup.js';

export interface PartsChoice {
  session: SessionChoice;
  /** The permission policy, given the conversation's way of asking. */
  authorize: (ask: AskApproval | undefined) => PermissionPolicy;
  asks: boolean;
  warn: (text: string) => void;
  env?: NodeJS.ProcessEnv;
  approvedPlan?: string;
}

/** A conversation's parts from the CLI's prepared run: every front end of the CLI builds its conversation here. */
export function conversationParts(prepared: PreparedRun, choice: PartsChoice): ConversationParts {
  const { settings } = prepared;
  const env = choice.env ?? agentEnvironment();
  const secrets = collectSecrets(env, [settings.apiKey]);
  return {
    workspace: prepared.workspace,
    provider: prepared.provider,
    model: prepared.resolved.model,
    preset: { name: prepared.resolved.preset.name, protocol: prepared.resolved.preset.protocol },
    tools: prepared.tools,
    system: prepared.system,
    context: prepared.context,
    hooks: prepared.hooks,
    commands: prepared.commands.commands,
    scope: prepared.skills.scope,
    mcpPrompt: (text) => prepared.mcp.expandPrompt(text, settings.mcpWaitMs),
    maxTurns: prepared.maxTurns,
    temperature: prepared.temperature,
    ...(prepared.maxCost !== undefined ? { maxCost: prepared.maxCost } : {}),
    cacheTtlMs: cacheTtlMsOf(settings.cacheTtl),
    ...(prepared.subagents ? { subagents: prepared.subagents } : {}),
    todos: prepared.todos,
    authorize: choice.authorize,
    asks: choice.asks,
    ...(choice.approvedPlan !== undefined ? { approvedPlan: choice.approvedPlan } : {}),
    watch: (id) => startTelemetryIfWanted(settings, { ...(id ? { conversationId: id } : {}), env }),
    mayChangeFiles: (call) => mayChangeFiles(prepared.tools, call),
    // Hooks run commands around the calls: then no call changes files only through the file tools.
    ...(prepared.writeWatch && !prepared.hooks ? { writes: { watch: prepared.writeWatch, onlyThrough: writesOnlyThroughFileTools } } : {}),
    session: choice.session,
    env,
    redact: createRedactor(secrets),
    secrets,
    warn: choice.warn,
  };
}
