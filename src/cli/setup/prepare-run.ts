import { existsSync, statSync } from 'node:fs';
import { watchedFileAccess, WriteWatch } from '../../checkpoints/write-watch.js';
import { diskFileAccess } from '../../tools/coding/shared/file-access.js';
import { imagesRefusedBy } from '../../providers/image-capability.js';
import { dirname, resolve } from 'node:path';
import type { SubagentOptions } from '../../agents/subagents.js';
import { buildSystemPrompt } from '../../memory/build-system-prompt.js';
import type { Provider } from '../../contracts/provider.js';
import { createContextPolicy, type ContextPolicy } from '../../context/policy.js';
import { cacheTtlMsOf } from '../../context/cache-prices.js';
import { createReviewer } from './reviewer-setup.js';
import type { SideModel } from '../../side-model/ask-side-model.js';
import { ConfigError, createProvider, type ResolvedProvider } from '../../providers/create-provider.js';
import { resolveCliProvider } from './provider-problem-text.js';
import { configuredPriceNames, priceOf, setModelPrices } from '../../providers/pricing.js';
import { loadProtocol } from '../../providers/load-protocol.js';
import { collectSecrets, createRedactor } from '../../session/redact.js';
import { setUpShellSandbox } from '../../sandbox/shell-sandbox-setup.js';
import { lazySandbox, noSandbox, type ShellSandbox } from '../../tools/coding/shell/shell-sandbox.js';
import { ToolRegistry } from '../../tools/registry.js';
import { ToolSearch } from '../../tools/tool-search/tool-search.js';
import { parseToolSearchMode } from '../../tools/tool-search/tool-search-mode.js';
import { contextWindowFor } from '../../context/model-windows.js';
import { lazyDiagnosticsObserver } from '../../diagnostics/lazy-diagnostics-observer.js';
import { discoverCommands, type CommandCatalog } from '../../commands/discover-commands.js';
import { setUpSkills, type SkillSetup } from '../../skills/skill-setup.js';
import { appendSection } from '../../skills/skills-prompt.js';
import type { Tool } from '../../contracts/tool.js';
import type { FileAccess } from '../../tools/coding/shared/file-access.js';
import type { FileToolOptions } from '../../tools/coding/shared/file-tool-options.js';
import type { WriteObserver } from '../../tools/coding/shared/observe-write.js';
import { FileReadTracker } from '../../tools/coding/shared/read-tracker.js';
import type { CodeNavSetup } from '../../lsp/code-nav-setup.js';
import type { AskTrust } from '../../trust/trust-question.js';
import type { CliArgs } from '../args/cli-args.js';
import { loadConfig, readProjectConfig, userConfigPath, type ProjectConfig } from '../settings/config.js';
import type { RunMcpServers } from '../../mcp/run-mcp-servers.js';
import { terminalTrust } from './ask-yes-no.js';
import { startMcpServers } from './mcp-setup.js';
import type { Hooks } from '../../hooks/hooks.js';
import { hookedRegistry, loadHooks } from './hooks-setup.js';
import { providerSettings } from './provider-settings.js';
import { serverSearchOptions } from './server-search-setup.js';
import { resolveSettings } from './resolve-settings.js';
import { selectTools } from './select-tools.js';
import { DEFAULT_TOOL_NAMES, expandToolGroups } from '../settings/tool-names.js';
import { TodoList } from '../../tools/builtin/todo-list.js';
import { SETTINGS, type Settings } from '../settings/settings.js';
import { UsageError } from '../settings/usage-error.js';
import { safeStderr } from '../display/safe-output.js';
import { agentEnvironment } from '../../secrets/held-secrets.js';

export const DEFAULT_MAX_TURNS = SETTINGS.maxTurns.default;

/** Everything a run needs from flags, environment and config files, shared by one-shot and interactive mode. */
export interface PreparedRun {
  workspace: string;
  /** Every setting, with precedence applied (see settings.ts). */
  settings: Settings;
  resolved: ResolvedProvider;
  provider: Provider;
  tools: ToolRegistry;
  /**
   * The context policy; it offers `read_output` to `tools` once an output has been shortened.
   * Its prepareMessages first waits (up to mcpWaitMs) for MCP servers still starting.
   */
  context: ContextPolicy;
  /** The hooks in effect (PreToolUse and PostToolUse already run through `tools`); undefined when none. */
  hooks: Hooks | undefined;
  /** The MCP servers, starting in the background; their tools join `tools` when ready. Close them when done. */
  mcp: RunMcpServers;
  /** The system prompt with the project memory (AGENTS.md) and the skills' names in it. */
  system: string;
  /** Skills found for this workspace, the `skill` tool's state and the run's tool scope. */
  skills: SkillSetup;
  /** Custom commands (`/name args`) found for this workspace. */
  commands: CommandCatalog;
  contextWindow: number | undefined;
  /** The per-run spending limit in US dollars (the model's price is known when set). */
  maxCost: number | undefined;
  maxTurns: number;
  temperature: number;
  /** The model's checklist (todo_write); restore it from a resumed session's history. */
  todos: TodoList;
  /** The auto permission mode's reviewer (see reviewer-setup.ts). */
  reviewer: SideModel;
  /** The task tool's agents and the tree's limits; absent when subagents are off (--tools without task or agents, or --agent-depth 0). */
  subagents: SubagentOptions | undefined;
  /** Where the file tools announce a write (checkpoints capture the file first); absent when they write through an editor (ACP). */
  writeWatch: WriteWatch | undefined;
}

/** What a caller other than the terminal supplies: the ACP server's editor-backed file access. */
export interface RunSurroundings {
  /** Where the file tools read and write (default the disk). */
  files?: FileAccess;
}

export async function prepareRun(args: CliArgs, env: NodeJS.ProcessEnv = agentEnvironment(), surroundings: RunSurroundings = {}): Promise<PreparedRun> {
  const workspace = resolve(args.cwd ?? process.cwd());
  const warn = (message: string) => safeStderr.write(`vibe-agent: warning: ${message}\n`);
  const project = await readProjectConfig(workspace, warn);
  const config = await loadConfig(workspace, env, warn, project);
  const resolvedSettings = resolveSettings(args, env, config);
  const settings = resolvedSettings.values;
  setModelPrices(settings.modelPrices);
  const plain = resolveCliProvider(providerSettings(resolvedSettings, env));
  const webSearch = serverSearchOptions(settings, plain, warn);
  const resolved: ResolvedProvider = webSearch ? { ...plain, webSearch } : plain;
  // Tool output is redacted of the user's keys before the model sees it; bash children never get them.
  const redact = createRedactor(collectSecrets(env, [settings.apiKey]));
  const ask = terminalTrust();
  const hooks = await loadHooks({ workspace, env, settings, warn, project, ...(ask ? { ask } : {}) });
  const skills = setUpSkills(workspace, env);
  const commands = discoverCommands(workspace, env);
  for (const warning of [...skills.catalog.warnings, ...commands.warnings]) warn(warning);
  const todos = new TodoList();
  const acceptsImages = imagesRefusedBy(resolved.preset.name, resolved.model) === undefined;
  const wanted = withoutOptional(expandToolGroups(settings.tools ?? DEFAULT_TOOL_NAMES).filter((name) => name !== 'task'));
  const sandbox = shellSandbox(settings, workspace, env);
  // A checker reads the disk: with the editor's buffers (ACP) it would check stale files, so it is off.
  const diagnostics = surroundings.files ? undefined : lazyDiagnosticsObserver({ setting: settings.diagnostics, env, passEnv: settings.passEnv, secrets: [settings.apiKey], runUnchecked: false, ...(sandbox ? { sandbox } : {}) });
  // code_nav's servers hear of every write, and report its diagnostics when one has the file open
  // (set once code_nav is set up below, which needs these options).
  let codeNav: CodeNavSetup | undefined;
  const observeWrite = withLanguageServers(diagnostics, () => codeNav, settings.diagnostics === 'auto');
  const tracker = new FileReadTracker();
  const writeWatch = surroundings.files ? undefined : new WriteWatch();
  const fileOptions = { extraRoots: existingDirs(settings.addDirs), allowSecrets: settings.allowSecrets, privateHosts: settings.fetchPrivate, readRoots: skills.readRoots, todos, acceptsImages, tracker, observeWrite, files: surroundings.files ?? watchedFileAccess(diskFileAccess, writeWatch!) };
  // An editor's buffers (ACP) are not what a language server reads from disk.
  codeNav = surroundings.files ? undefined : await codeNavTool(settings, workspace, env, project, ask, fileOptions);
  const selected = [...(await selectTools(wanted, fileOptions, { passEnv: settings.passEnv, secrets: [settings.apiKey], ...(sandbox ? { sandbox } : {}) })), ...(await optionalTools(settings, workspace, skills, env)), ...(codeNav ? [codeNav.tool] : [])];
  const registryOptions = { redact, gate: skills.gate, offer: toolSearchFor(settings, resolved) };
  const tools = hooks ? await hookedRegistry(hooks, selected, registryOptions) : new ToolRegistry(selected, registryOptions);
  const mcp = withClosing(await startMcpServers({ workspace, env, settings, registry: tools, warn, project, ...(ask ? { ask } : {}) }), codeNav);
  const provider = await loadProtocol(await createProvider(resolved), settings.protocol);
  const reviewer = await createReviewer(settings, { resolved, provider }, env);
  if (settings.maxCost !== undefined && !priceOf(resolved.model)) {
    const configured = configuredPriceNames();
    throw new ConfigError(
      `--max-cost needs the model's price, and none is known for "${resolved.model}": the model catalog does not list it${configured.length ? ` and modelPrices in the config has only ${configured.join(', ')}` : ''}. ` +
        `Add it to your config file, e.g. "modelPrices": { "${resolved.model}": { "input": 1.25, "output": 10, "cachedInput": 0.125 } } (US dollars per million tokens).`,
    );
  }
  const context = createContextPolicy({
    provider,
    registry: tools,
    offerReadOutput: (tool) => tools.register(tool),
    cacheTtlMs: cacheTtlMsOf(settings.cacheTtl),
    ...(settings.contextWindow !== undefined ? { contextWindow: settings.contextWindow } : {}),
    // Claude Code's PreCompact: it sees the compaction coming; nothing it prints stops one.
    ...(hooks?.has('PreCompact') ? { beforeCompact: async (trigger: 'auto' | 'manual', focus?: string) => void (await hooks.run('PreCompact', { trigger, custom_instructions: focus ?? '' }, undefined, trigger)) } : {}),
  });
  // The first request waits for servers still starting, up to mcpWaitMs; later ones join at a later turn.
  let waited = false;
  const waitForServers: ContextPolicy['prepareMessages'] = async (messages, turn) => {
    if (!waited) await mcp.settled(settings.mcpWaitMs);
    waited = true;
    return context.prepareMessages(messages, turn);
  };
  return {
    workspace,
    settings,
    resolved,
    provider,
    reviewer,
    tools,
    context: { ...context, prepareMessages: waitForServers },
    mcp,
    hooks,
    system: appendSection(buildSystemPrompt({ workspace, cwd: process.cwd(), warn }), skills.prompt),
    skills,
    commands,
    contextWindow: settings.contextWindow,
    maxCost: settings.maxCost,
    maxTurns: settings.maxTurns,
    temperature: settings.temperature,
    subagents: withSubagentStop(await subagentOptions(settings, workspace, env), hooks, warn),
    todos,
    writeWatch,
  };
}

/** Claude Code's SubagentStop hooks, with Stop's rules: a block sends the subagent back to work, at most 3 times. */
/** Tool search for the run's MCP tools, unless the setting turns it off (see src/tools/tool-search). */
function toolSearchFor(settings: Settings, resolved: ResolvedProvider): ToolSearch | undefined {
  const mode = parseToolSearchMode(settings.toolSearch);
  if (typeof mode === 'string') throw new UsageError(`toolSearch: ${mode}.`);
  if (mode.kind === 'never') return undefined;
  const contextWindow = contextWindowFor({ model: resolved.model, provider: resolved.preset.name, ...(settings.contextWindow !== undefined ? { override: settings.contextWindow } : {}) });
  return new ToolSearch({ mode, contextWindow, native: anthropicToolSearch(resolved, settings) });
}

/**
 * Anthropic's own endpoint loads deferred tools itself (defer_loading + tool_reference); a proxy
 * or gateway in between may refuse the format (`vibe-agent doctor` probes it), so every other
 * endpoint, and every other wire, gets the bridge.
 */
function anthropicToolSearch(resolved: ResolvedProvider, settings: Settings): boolean {
  if (resolved.preset.protocol !== 'anthropic' || settings.protocol === 'prompt-json') return false;
  try {
    return new URL(resolved.baseURL).hostname === 'api.anthropic.com';
  } catch {
    return false;
  }
}

function withSubagentStop(subagents: SubagentOptions | undefined, hooks: Hooks | undefined, warn: (message: string) => void): SubagentOptions | undefined {
  if (!subagents || !hooks?.has('SubagentStop')) return subagents;
  return { ...subagents, onStop: async ({ path, agent, reason, round }) => (await import('../../hooks/stop-hook.js')).continueAfterStop(hooks, reason, round, warn, { agent_id: path, agent_type: agent }) };
}

async function subagentOptions(settings: Settings, workspace: string, env: NodeJS.ProcessEnv): Promise<SubagentOptions | undefined> {
  if (settings.agentDepth === 0 || !expandToolGroups(settings.tools ?? DEFAULT_TOOL_NAMES).includes('task')) return undefined;
  // Agent files (their YAML front matter, their schema) are read only when the task tool is on.
  const { loadAgents } = await import('../../agents/load-agents.js');
  const warn = (message: string) => safeStderr.write(`vibe-agent: warning: ${message}\n`);
  return {
    agents: loadAgents({ workspace, userConfigDir: dirname(userConfigPath(env)), env }, warn),
    maxDepth: settings.agentDepth,
    runChild: (await import('../../conversation/child-conversation.js')).runChildConversation,
    ...(settings.tokenBudget !== undefined ? { tokenBudget: settings.tokenBudget } : {}),
  };
}

// Tools that come with what was found or configured (skills, knowledge folders, a search service, language servers), unless --tools names a set without them.
const OPTIONAL_TOOLS = ['skill', 'search_docs', 'web_search', 'code_nav'];

/** code_nav, when a language server is found for the workspace's files (and code_nav is wanted); undefined otherwise. */
async function codeNavTool(settings: Settings, workspace: string, env: NodeJS.ProcessEnv, project: ProjectConfig, ask: AskTrust | undefined, files: FileToolOptions): Promise<CodeNavSetup | undefined> {
  if (settings.tools !== undefined && !settings.tools.includes('code_nav')) return undefined;
  const warn = (message: string) => safeStderr.write(`vibe-agent: warning: ${message}\n`);
  const { setUpCodeNav } = await import('../../lsp/code-nav-setup.js');
  return setUpCodeNav({ workspace, env, childEnv: { passEnv: settings.passEnv, secrets: [settings.apiKey] }, userServers: settings.lspServers, projectServers: project.config.lspServers, trustAll: settings.trustProjectMcp, ask, warn, files });
}

/**
 * The write observer: the language server that has the file open reports the edit's diagnostics
 * (else the project's checker, as before), and every running server is told of the file written.
 */
function withLanguageServers(diagnostics: WriteObserver | undefined, codeNav: () => CodeNavSetup | undefined, diagnosticsOn: boolean): WriteObserver {
  return async (absolute, context) => {
    const existed = existsSync(absolute);
    const fromServer = diagnosticsOn ? await codeNav()?.diagnosticsFor(absolute) : undefined;
    // A server without diagnostics for the file yet leaves it to the checker.
    const after = (await fromServer?.(absolute, context)) ?? (await diagnostics?.(absolute, context));
    return async () => {
      await codeNav()?.written(absolute, !existed);
      return after?.();
    };
  };
}

/** The MCP servers, whose close also shuts code_nav's language servers down. */
function withClosing(mcp: RunMcpServers, codeNav: CodeNavSetup | undefined): RunMcpServers {
  if (!codeNav) return mcp;
  const closeMcp = mcp.close.bind(mcp);
  mcp.close = async () => {
    await Promise.all([closeMcp(), codeNav.close()]);
  };
  return mcp;
}

function withoutOptional(names: string[] | undefined): string[] | undefined {
  return names?.filter((name) => !OPTIONAL_TOOLS.includes(name));
}

async function optionalTools(settings: Settings, workspace: string, skills: SkillSetup, env: NodeJS.ProcessEnv): Promise<Tool[]> {
  const wanted = (name: string) => settings.tools === undefined || settings.tools.includes(name);
  const tools: Tool[] = [];
  if (skills.tool && wanted('skill')) tools.push(skills.tool);
  if (settings.knowledge.length && wanted('search_docs')) {
    // The knowledge code loads only for a run with knowledge folders.
    const [{ indexPath }, { createSearchDocsTool }] = await Promise.all([import('../../knowledge/knowledge-source.js'), import('../../knowledge/search-docs-tool.js')]);
    tools.push(createSearchDocsTool({ sources: settings.knowledge, indexPath: indexPath(settings.knowledge, env), workspace }));
  }
  // "service": "provider" is the provider's own search (server-search-setup.ts), not this tool.
  if (settings.webSearch !== undefined && settings.webSearch.service !== 'provider' && wanted('web_search')) {
    const [{ parseWebSearchConfig }, { createWebSearchTool }] = await Promise.all([import('../../tools/builtin/web-search/search-service.js'), import('../../tools/builtin/web-search/web-search-tool.js')]);
    const parsed = parseWebSearchConfig(settings.webSearch);
    if (!parsed.ok) throw new ConfigError(parsed.reason);
    try {
      tools.push(createWebSearchTool({ ...parsed.config, env, rules: settings.permissions }));
    } catch (error) {
      // Its domain: rules are read here, before the permission policy reads them all.
      throw new ConfigError(`Invalid permission rule in config: ${(error as Error).message}`);
    }
  }
  return tools;
}

export function shellSandbox(settings: Settings, workspace: string, env: NodeJS.ProcessEnv): ShellSandbox | undefined {
  const setUp = () =>
    setUpShellSandbox({
      mode: settings.sandbox,
      workspace,
      addDirs: settings.addDirs,
      network: settings.sandboxNetwork,
      ...(env.HOME ? { home: env.HOME } : {}),
      warn: (text) => safeStderr.write(`vibe-agent: warning: ${text}\n`),
    });
  if (settings.sandbox === 'off') return undefined;
  // "auto" is set up on the first command; "on" is checked now, so a machine without it stops before any request.
  if (settings.sandbox === 'auto') return lazySandbox(() => setUp() ?? noSandbox);
  try {
    return setUp();
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

export function existingDirs(dirs: string[]): string[] {
  for (const dir of dirs) {
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--add-dir ${dir}: no such directory.`);
  }
  return dirs;
}
