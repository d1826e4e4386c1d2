import { PERMISSION_MODES, type PermissionMode } from '../../permissions/permission-modes.js';
import { OPENAI_WIRES, PRESETS, type OpenAIWire } from '../../providers/presets.js';
import { atLeast, commaList, wholeNumber, directory, docsFolder, dollars, oneOf, positiveInteger, secondsAsMs, temperature, text, trueOrFalse, type ParseSetting } from './setting-parsers.js';
import { DEFAULT_TOOL_NAMES } from './tool-names.js';
import { parseToolSearchMode } from '../../tools/tool-search/tool-search-mode.js';
import { UsageError } from './usage-error.js';
import { DEFAULT_FIRST_BYTE_TIMEOUT_MS } from '../../providers/shared/idle-timer.js';
import type { KnowledgeSource } from '../../knowledge/knowledge-source.js';
import type { DiagnosticsSetting } from '../../diagnostics/diagnostics-observer.js';
import type { PriceSetting } from '../../providers/pricing.js';

export const PROTOCOLS = ['native', 'prompt-json'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** Every value a run takes from flags, environment and config files, once precedence is applied. */
export interface Settings {
  provider: string;
  model: string | undefined;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  maxTurns: number;
  /** Input plus output tokens the run and its subagents may use. */
  tokenBudget: number | undefined;
  /** Levels of subagents below the top agent; 0 turns the task tool off. */
  agentDepth: number;
  /** US dollars a run may spend before it stops (exit 3). */
  maxCost: number | undefined;
  temperature: number;
  /** Extended thinking budget in tokens (anthropic, google). */
  thinking: number | undefined;
  tools: string[] | undefined;
  contextWindow: number | undefined;
  permissionMode: PermissionMode;
  /** A plan-mode answer to carry out: calls outside its Files: and Commands: lists ask again. */
  planFile: string | undefined;
  permissions: { allow: string[]; deny: string[] };
  /** The model that reviews calls in the auto permission mode; unset: the session's own. */
  reviewer: ReviewerSetting | undefined;
  /** How long the reviewer may take over one call before it is refused (ms). */
  reviewerTimeoutMs: number;
  /** Directories beyond the workspace the file tools may use (absolute). */
  addDirs: string[];
  images: string[];
  allowSecrets: boolean;
  /** Variables bash commands get although they hold a key. */
  passEnv: string[];
  /** Hosts fetch_url may reach although they are private, loopback or link-local addresses. */
  fetchPrivate: string[];
  /** How tools reach the model: native tool calls, or JSON described in the prompt. */
  protocol: Protocol | undefined;
  /** OpenAI's wire: Chat Completions or the Responses API. */
  wire: OpenAIWire | undefined;
  idleTimeoutMs: number | undefined;
  /** How long a reply may send nothing at all before it is given up (a silent endpoint), in ms. */
  firstByteTimeoutMs: number;
  /** Folders search_docs covers (absolute paths). */
  knowledge: KnowledgeSource[];
  /** The search service web_search uses (checked by src/tools/builtin/web-search); undefined: no web_search. */
  webSearch: Record<string, unknown> | undefined;
  /** MCP servers by name, in Claude Code's `.mcp.json` shape (read by src/mcp). */
  mcpServers: Record<string, unknown>;
  /** Language servers added to the built-in ones, by name (read by src/lsp). */
  lspServers: Record<string, unknown>;
  /** Hooks in Claude Code's shape, by event (read by src/hooks). */
  hooks: Record<string, unknown>;
  /** Start the project's MCP servers (and hooks) without asking. */
  trustProjectMcp: boolean;
  /** Key variables a project's MCP server may be sent through `${VAR}`, by the server's name. */
  mcpPassEnv: Record<string, string[]>;
  /** How long the first request waits for MCP servers still starting, in ms. */
  mcpWaitMs: number;
  /** When MCP tools are deferred behind tool_search: auto, auto:N, always, never (read by src/tools/tool-search). */
  toolSearch: string;
  /** The shell's OS sandbox: auto (bubblewrap where it works), on (required), off. */
  sandbox: SandboxMode;
  /** Let sandboxed commands use the network. */
  sandboxNetwork: boolean;
  /** The checker run after each edit: auto (found in the project), off, or a configured command. */
  diagnostics: DiagnosticsSetting;
  /** Prompts, replies and tool input/output on the exported OpenTelemetry spans. */
  otelCaptureContent: boolean;
  /** Anthropic's prompt-cache lifetime for the tools and system prompt, or off (no cache breakpoints). */
  cacheTtl: CacheTtlSetting;
  /** Prices (US dollars per million tokens) that beat the model catalog's, by model name. */
  modelPrices: Record<string, PriceSetting>;
  /** A goal for this run: work until the judge says it holds (docs/goals.md). */
  goal: string | undefined;
  /** Continue a resumed session's unfinished goal without asking (headless runs need it). */
  continueGoal: boolean;
  /** The model that judges goals; unset: the reviewer, else the session's own. */
  goalJudge: ReviewerSetting | undefined;
  goalMaxCost: number;
  goalMaxTokens: number;
  goalMaxTurns: number;
  goalMaxTimeMs: number;
  /** The same judge reason or the same calls and results this many turns in a row: blocked. */
  goalStallTurns: number;
  /** The commands a goal's judge may run (read-only checks), besides reading files. */
  goalChecks: string[];
  /** The commands `vibe-agent land` runs in the worktree when no --check is given (a project's only once approved). */
  landChecks: string[];
}

function toolSearchSetting(raw: string, name: string): string {
  const mode = parseToolSearchMode(raw);
  if (typeof mode === 'string') throw new UsageError(`${name}: ${mode}.`);
  return raw.trim();
}

export const CACHE_TTL_SETTINGS = ['5m', '1h', 'off'] as const;
export type CacheTtlSetting = (typeof CACHE_TTL_SETTINGS)[number];

export const SANDBOX_MODES = ['auto', 'on', 'off'] as const;
export const DIAGNOSTICS_MODES = ['auto', 'off'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export type SettingKey = keyof Settings;

/** `reviewer`: a provider preset (default the session's) and a model. */
export interface ReviewerSetting {
  provider?: string;
  model: string;
}

/** A config file value's type; config.ts turns it into a validator, the docs into words. */
export type ConfigType =
  | { type: 'string' }
  | { type: 'url' }
  | { type: 'integer'; min: number }
  | { type: 'number'; min?: number; max?: number; above?: number }
  | { type: 'boolean' }
  | { type: 'strings' }
  | { type: 'choice'; choices: readonly string[] }
  | { type: 'rules' }
  | { type: 'sources' }
  /** "auto", "off" or { command, format, timeout, extensions } (src/diagnostics). */
  | { type: 'checker' }
  /** Model name → { input, output, cachedInput?, cacheWrite?, cacheWrite1h? } in US dollars per million tokens. */
  | { type: 'prices' }
  /** { "provider"?, "model" }: the auto mode's reviewer. */
  | { type: 'reviewer' }
  /** An object whose values are lists of text (`mcpPassEnv`: server name → variable names). */
  | { type: 'lists' }
  /** A JSON object another module validates (MCP servers, hooks); `words` describes it. */
  | { type: 'object'; words: string };

/**
 * What a project's `.vibe-agent/config.json` may do with a setting, since a cloned repository
 * must not loosen what the user chose: not set it at all (user-only), only lower the user's
 * number, only narrow the user's tool list, only point at this machine (where the key goes),
 * only add deny rules, or only once the user approves it (MCP servers, hooks, land checks: they run code).
 */
export type ProjectRule = 'user-only' | 'may-lower' | 'may-narrow' | 'local-only' | 'deny-only' | 'after-approval';

export interface SettingRow<T> {
  /** The long flag without its dashes. */
  flag?: string;
  short?: string;
  /** The flag's value in --help; a flag without one is a switch that turns the setting on. */
  value?: string;
  /** The flag may be repeated; config values and flags are then added together. */
  repeatable?: boolean;
  /** The environment variable, read by the settings resolver. */
  env?: string;
  /** Variables named per provider (read by resolveProvider with the preset), for --help and the docs. */
  providerEnv?: string;
  /** Present when config files may set it, under the setting's key. */
  config?: ConfigType;
  project?: ProjectRule;
  /** A config file's value goes with the config file's provider, not with one chosen by flag or environment. */
  followsProvider?: boolean;
  /** Reads a flag's or variable's text; for a repeatable flag, one occurrence. */
  parse?: ParseSetting<T> | (T extends readonly (infer E)[] ? ParseSetting<E> : never);
  default: T;
  /** The default in words, when it is worked out later (per model, per provider). */
  defaultText?: string;
  help: string;
}

type SettingTable = { [K in SettingKey]: SettingRow<Settings[K]> };

const providerNames = Object.keys(PRESETS);
const baseUrlVariables = Object.values(PRESETS).flatMap((preset) => preset.baseUrlVariable ?? []);
const keyVariables = Object.values(PRESETS).flatMap((preset) => preset.keyVariable ?? []);

/**
 * The settings, in --help order. Flags beat environment, environment beats config files (the
 * project's over the user's), config files beat defaults: `resolveSettings` applies this table.
 */
export const SETTINGS = {
  provider: {
    flag: 'provider',
    value: 'NAME',
    env: 'VIBE_PROVIDER',
    config: { type: 'string' },
    project: 'local-only',
    parse: text,
    default: 'openai',
    defaultText: 'openai; with no OpenAI key or base URL set, the first provider whose key is set (ANTHROPIC_API_KEY: anthropic, …)',
    help: `the provider preset: ${providerNames.join(', ')}; gemini is google`,
  },
  model: {
    flag: 'model',
    short: 'm',
    value: 'NAME',
    env: 'VIBE_MODEL',
    config: { type: 'string' },
    followsProvider: true,
    parse: text,
    default: undefined,
    defaultText: "the provider's default model; openai's only at OpenAI's own endpoint",
    help: 'model name',
  },
  baseUrl: {
    flag: 'base-url',
    value: 'URL',
    providerEnv: `the provider's base-URL variable (${baseUrlVariables.slice(0, 2).join(', ')}, …)`,
    config: { type: 'url' },
    project: 'local-only',
    followsProvider: true,
    parse: text,
    default: undefined,
    defaultText: "the provider's endpoint",
    help: 'the endpoint, e.g. any OpenAI-compatible server',
  },
  apiKey: {
    flag: 'api-key',
    value: 'KEY',
    providerEnv: `the provider's key variable (${keyVariables.slice(0, 2).join(', ')}, …)`,
    parse: text,
    default: undefined,
    defaultText: 'none needed for a local server or a base URL you set',
    help: "the provider's key (prefer its environment variable: other users can see flags in ps)",
  },
  maxCost: {
    flag: 'max-cost',
    value: 'USD',
    config: { type: 'number', above: 0 },
    project: 'may-lower',
    parse: dollars,
    default: undefined,
    defaultText: 'no limit',
    help: 'stop once the run has cost more than this, subagents included (list prices; models with a known price)',
  },
  maxTurns: {
    flag: 'max-turns',
    value: 'N',
    config: { type: 'integer', min: 1 },
    project: 'may-lower',
    parse: positiveInteger,
    default: 50,
    help: 'model requests allowed with tools, subagents\' requests included',
  },
  tokenBudget: {
    flag: 'token-budget',
    value: 'N',
    config: { type: 'integer', min: 1 },
    project: 'may-lower',
    parse: positiveInteger,
    default: undefined,
    defaultText: 'no limit',
    help: 'input plus output tokens the run may use, its subagents included (checked before each request)',
  },
  agentDepth: {
    flag: 'agent-depth',
    value: 'N',
    config: { type: 'integer', min: 0 },
    project: 'may-lower',
    parse: wholeNumber,
    default: 1,
    help: 'levels of subagents the task tool may start (0: no task tool; 1: children cannot start children)',
  },
  temperature: {
    flag: 'temperature',
    value: 'T',
    config: { type: 'number', min: 0, max: 2 },
    parse: temperature,
    default: 0,
    help: 'sampling temperature',
  },
  thinking: {
    flag: 'thinking',
    value: 'TOKENS',
    parse: atLeast(1024, (n) => `--thinking is a budget in tokens, at least 1024 (Anthropic's minimum), got ${n}.`),
    default: undefined,
    defaultText: 'off',
    help: 'extended thinking with this budget (anthropic, google), shown dimmed',
  },
  tools: {
    flag: 'tools',
    value: 'a,b,c',
    config: { type: 'strings' },
    project: 'may-narrow',
    parse: commaList,
    default: undefined,
    defaultText: DEFAULT_TOOL_NAMES.join(', '),
    help: 'tool set by name; groups: "coding" (the file, search and shell tools), "course" (current_time, calculator, fetch_url), "agents" (task, todo_write, todo_read)',
  },
  contextWindow: {
    flag: 'context-window',
    value: 'N',
    config: { type: 'integer', min: 1024 },
    parse: atLeast(1024, (n) => `--context-window must be at least 1024 tokens, got ${n}.`),
    default: undefined,
    defaultText: 'known per model, 8192 for local servers',
    help: "the model's context window in tokens",
  },
  permissionMode: {
    flag: 'permission-mode',
    value: 'M',
    config: { type: 'choice', choices: PERMISSION_MODES },
    project: 'user-only',
    parse: oneOf(PERMISSION_MODES),
    default: 'ask',
    help: 'ask (confirm every write, edit and shell call), auto-edit (file edits run, shell asks), yolo (nothing asks) or plan (only read-only tools run; the run ends with a plan)',
  },
  reviewer: {
    flag: 'reviewer',
    value: 'MODEL',
    config: { type: 'reviewer' },
    project: 'user-only',
    parse: reviewerFlag,
    default: undefined,
    defaultText: "the session's own provider and model",
    help: 'the model that reviews calls in --permission-mode auto (a small one is enough): MODEL on the session\'s provider, or PROVIDER/MODEL; in config {"provider": "anthropic", "model": "claude-haiku-4-5"}',
  },
  reviewerTimeoutMs: {
    flag: 'reviewer-timeout',
    value: 'SECONDS',
    env: 'VIBE_REVIEWER_TIMEOUT',
    parse: secondsAsMs,
    default: 90_000,
    defaultText: '90 s',
    help: 'seconds the auto mode\'s reviewer may take over one call; no verdict by then refuses the call',
  },
  planFile: {
    flag: 'plan-file',
    value: 'FILE',
    parse: text,
    default: undefined,
    defaultText: 'none',
    help: "carry out an approved plan (a plan-mode answer saved to FILE): it joins the prompt, and a write or command its Files: and Commands: lists do not name asks again, denied without a terminal",
  },
  permissions: {
    config: { type: 'rules' },
    project: 'deny-only',
    default: { allow: [], deny: [] },
    help: 'allow and deny rules, e.g. {"allow": ["bash(npm test)"], "deny": ["bash(git push*)"]}',
  },
  addDirs: {
    flag: 'add-dir',
    value: 'DIR',
    repeatable: true,
    config: { type: 'strings' },
    project: 'user-only',
    parse: directory,
    default: [],
    help: 'let the file tools use DIR too (repeatable; in a config file, relative to the workspace)',
  },
  images: {
    flag: 'image',
    value: 'PATH',
    repeatable: true,
    parse: text,
    default: [],
    help: "attach the image at PATH to the prompt (repeatable): PNG, JPEG, GIF or WebP, resized when over the provider's limits (see docs/images.md)",
  },
  allowSecrets: {
    flag: 'allow-secrets',
    config: { type: 'boolean' },
    project: 'user-only',
    default: false,
    help: 'let the file tools read .env files, keys and credentials',
  },
  passEnv: {
    flag: 'pass-env',
    value: 'NAME',
    repeatable: true,
    config: { type: 'strings' },
    project: 'user-only',
    parse: text,
    default: [],
    help: 'give bash commands and checkers the variable NAME although it holds a key (repeatable; by default every *_KEY, *_TOKEN, *_SECRET and *PASSWORD variable and the --api-key value are kept from them)',
  },
  fetchPrivate: {
    flag: 'fetch-private',
    value: 'HOST',
    repeatable: true,
    config: { type: 'strings' },
    project: 'user-only',
    parse: text,
    default: [],
    help: 'let fetch_url reach HOST although it is a private, loopback or link-local address (repeatable)',
  },
  protocol: {
    flag: 'protocol',
    value: 'P',
    parse: oneOf(PROTOCOLS),
    default: undefined,
    defaultText: 'native',
    help: "native: the API's tool calls; prompt-json: tools described in the prompt, JSON replies",
  },
  wire: {
    flag: 'wire',
    value: 'W',
    config: { type: 'choice', choices: OPENAI_WIRES },
    followsProvider: true,
    parse: oneOf(OPENAI_WIRES),
    default: undefined,
    defaultText: "responses for OpenAI's reasoning models (o-series, gpt-5) at api.openai.com, chat otherwise",
    help: "an OpenAI-protocol provider's wire: chat (Chat Completions) or responses (the Responses API; reasoning carried between tool calls)",
  },
  idleTimeoutMs: {
    env: 'VIBE_IDLE_TIMEOUT',
    parse: secondsAsMs,
    default: undefined,
    defaultText: '300 s, 600 s for local servers',
    help: 'seconds a streamed reply may send nothing before it is retried',
  },
  firstByteTimeoutMs: {
    flag: 'first-byte-timeout',
    value: 'S',
    env: 'VIBE_FIRST_BYTE_TIMEOUT',
    parse: secondsAsMs,
    default: DEFAULT_FIRST_BYTE_TIMEOUT_MS,
    defaultText: '60 s',
    help: 'seconds a streamed request may wait for the first byte of the reply before the run stops with the reason (not retried); once the reply streams, only the idle limit applies, so a slow model is never cut',
  },
  knowledge: {
    flag: 'docs',
    value: 'DIR',
    repeatable: true,
    config: { type: 'sources' },
    parse: docsFolder,
    default: [],
    defaultText: 'none (search_docs is offered once there is one)',
    help: 'folders search_docs searches (repeatable); in a config file [{ "name", "path", "glob" }], paths relative to the workspace',
  },
  webSearch: {
    config: { type: 'object', words: 'object: { service: "searxng", url } or { service: "brave" | "tavily" | "exa", url? } (keys in BRAVE_SEARCH_API_KEY, TAVILY_API_KEY, EXA_API_KEY) or { service: "provider", maxUses, allowedDomains | blockedDomains }, maxSearches' },
    project: 'user-only',
    default: undefined,
    defaultText: 'none (web_search is offered once there is one)',
    help: 'the search service web_search asks: a SearXNG instance (its JSON API), Brave Search, Tavily or Exa (url replaces the service\'s address), or "provider" for the provider\'s own server-side search (Anthropic, OpenAI Responses, Gemini); at most maxSearches (default 20) searches a session (see docs/tools.md)',
  },
  mcpServers: {
    config: { type: 'object', words: 'object: name → { command, args, env, cwd } or { type: "http" | "sse", url, headers }' },
    project: 'after-approval',
    default: {},
    defaultText: 'none; the project’s .mcp.json, .gemini/settings.json and .codex/config.toml are read too',
    help: 'MCP servers whose tools join the run as mcp__<server>__<tool> (see docs/mcp-and-hooks.md)',
  },
  lspServers: {
    config: { type: 'object', words: 'object: name → { command, args, extensions, initializationOptions, settings, timeout }' },
    project: 'after-approval',
    default: {},
    defaultText: 'none; typescript-language-server, pyright-langserver or basedpyright-langserver, gopls, rust-analyzer and clangd are found by themselves',
    help: 'language servers for code_nav beyond the built-in ones, tried before them (see docs/code-intelligence.md)',
  },
  hooks: {
    config: { type: 'object', words: 'object: event → [{ matcher, hooks: [{ type: "command", command, timeout }] }]' },
    project: 'after-approval',
    default: {},
    defaultText: 'none',
    help: "Claude Code's hooks: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop (see docs/mcp-and-hooks.md)",
  },
  trustProjectMcp: {
    flag: 'trust-project-mcp',
    config: { type: 'boolean' },
    project: 'user-only',
    default: false,
    help: "start the project's MCP servers and run its hooks without asking (otherwise asked about once each, and skipped without a terminal)",
  },
  mcpPassEnv: {
    config: { type: 'lists' },
    project: 'user-only',
    default: {},
    defaultText: 'none',
    help: 'the key variables (names ending in _KEY, _TOKEN, …, or with SECRET, PASSWORD in them) a project\'s MCP server may be sent through ${VAR} in its env, args, URL or headers, by server name as configured: { "docs": ["DOCS_API_KEY"] }; a project server that would be sent any other is not started',
  },
  mcpWaitMs: {
    env: 'VIBE_MCP_WAIT',
    parse: secondsAsMs,
    default: 5000,
    defaultText: '5 s',
    help: 'seconds the first request waits for MCP servers still starting; later ones join at the next turn',
  },
  toolSearch: {
    flag: 'tool-search',
    value: 'MODE',
    env: 'VIBE_TOOL_SEARCH',
    config: { type: 'string' },
    parse: toolSearchSetting,
    default: 'auto',
    help: 'defer MCP tools behind tool_search (the model sees each by name and one line, and loads what it needs): auto (once their schemas pass 10% of the context window), auto:N (past N%), always or never',
  },
  sandbox: {
    flag: 'sandbox',
    value: 'MODE',
    env: 'VIBE_SANDBOX',
    config: { type: 'choice', choices: SANDBOX_MODES },
    project: 'user-only',
    parse: oneOf(SANDBOX_MODES),
    default: 'auto',
    help: 'the shell under bubblewrap (Linux): the workspace, --add-dir folders and a private /tmp writable, the rest read-only, no network, secret files hidden; auto (where it works, else a warning), on (required) or off',
  },
  sandboxNetwork: {
    flag: 'sandbox-network',
    config: { type: 'boolean' },
    project: 'user-only',
    default: false,
    help: 'let sandboxed shell commands use the network',
  },
  diagnostics: {
    flag: 'diagnostics',
    value: 'MODE',
    env: 'VIBE_DIAGNOSTICS',
    config: { type: 'checker' },
    parse: oneOf(DIAGNOSTICS_MODES),
    default: 'auto',
    help: "after each edit_file/write_file, run the project's checker (its own tsc, eslint, ruff, go vet; asked like a shell command) and add the errors the edit introduced or fixed to the result; auto, off, or in a config file { \"command\", \"format\", \"timeout\", \"extensions\" } (see docs/tools.md)",
  },
  otelCaptureContent: {
    flag: 'otel-capture-content',
    env: 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT',
    config: { type: 'boolean' },
    project: 'user-only',
    parse: trueOrFalse,
    default: false,
    help: 'put prompts, replies and tool arguments and results (redacted of known keys) on the OpenTelemetry spans exported when OTEL_EXPORTER_OTLP_ENDPOINT is set; without it spans carry no message content',
  },
  cacheTtl: {
    flag: 'cache-ttl',
    value: 'TTL',
    config: { type: 'choice', choices: CACHE_TTL_SETTINGS },
    parse: oneOf(CACHE_TTL_SETTINGS),
    default: '5m',
    help: 'Anthropic prompt caching: 5m, 1h (the tools and system prompt stay cached an hour; writes cost 2× input instead of 1.25×) or off (see docs/providers.md)',
  },
  modelPrices: {
    config: { type: 'prices' },
    project: 'user-only',
    default: {},
    defaultText: 'none: prices come from the model catalog',
    help: 'prices for models the catalog lacks or that you pay differently for, in US dollars per million tokens: { "model": { "input", "output", "cachedInput", "cacheWrite", "cacheWrite1h" } }',
  },
  goal: {
    flag: 'goal',
    value: 'CONDITION',
    parse: text,
    default: undefined,
    defaultText: 'none',
    help: 'work turn after turn until an independent judge, running read-only checks, says CONDITION holds, or a goal cap stops it (exit 3; see docs/goals.md)',
  },
  continueGoal: {
    flag: 'continue-goal',
    default: false,
    help: "with --continue or --resume: continue the session's unfinished goal (a headless run never continues one without it)",
  },
  goalJudge: {
    flag: 'goal-judge',
    value: 'MODEL',
    config: { type: 'reviewer' },
    project: 'user-only',
    parse: reviewerFlag,
    default: undefined,
    defaultText: "the reviewer model, else the session's own",
    help: 'the model that judges whether a goal holds: MODEL on the session\'s provider, or PROVIDER/MODEL; in config {"provider", "model"}',
  },
  goalMaxCost: {
    flag: 'goal-max-cost',
    value: 'USD',
    config: { type: 'number', above: 0 },
    project: 'may-lower',
    parse: dollars,
    default: 5,
    defaultText: '$5',
    help: 'a goal stops once it has cost more than this, agent, subagents and judge together (list prices)',
  },
  goalMaxTokens: {
    flag: 'goal-max-tokens',
    value: 'N',
    config: { type: 'integer', min: 1 },
    project: 'may-lower',
    parse: positiveInteger,
    default: 2_000_000,
    help: 'a goal stops once it has used more tokens than this (input and output, agent, subagents and judge)',
  },
  goalMaxTurns: {
    flag: 'goal-max-turns',
    value: 'N',
    config: { type: 'integer', min: 1 },
    project: 'may-lower',
    parse: positiveInteger,
    default: 20,
    help: 'working turns a goal may take (each a prompt the agent runs to its answer, judged after)',
  },
  goalMaxTimeMs: {
    flag: 'goal-max-time',
    value: 'MINUTES',
    config: { type: 'integer', min: 1 },
    project: 'may-lower',
    parse: (raw, name) => positiveInteger(raw, name) * 60_000,
    default: 60 * 60_000,
    defaultText: '60 minutes',
    help: 'wall time a goal may take, in minutes (in config: milliseconds)',
  },
  goalStallTurns: {
    flag: 'goal-stall-turns',
    value: 'N',
    config: { type: 'integer', min: 2 },
    project: 'may-lower',
    parse: positiveInteger,
    default: 3,
    help: 'a goal stops as blocked when the judge gives the same reason, or the agent makes the same calls with the same results, this many turns in a row',
  },
  goalChecks: {
    flag: 'goal-checks',
    value: 'a,b,c',
    config: { type: 'strings' },
    project: 'user-only',
    parse: commaList,
    default: ['npm test', 'git status', 'git diff --stat'],
    help: "the commands a goal's judge may run as read-only checks (run without a shell, in the sandbox with the workspace read-only), besides reading workspace files",
  },
  landChecks: {
    config: { type: 'strings' },
    project: 'after-approval',
    default: [],
    defaultText: 'none',
    help: "the checks `vibe-agent land` runs in the session's worktree (sh -c, in order; a non-zero exit lands nothing) when no --check is given; a project's list runs only once you approve it, as its hooks do (asked once per content, or --trust-project-mcp); see docs/background.md",
  },
} satisfies SettingTable;

/** `--reviewer anthropic/claude-haiku-4-5`, or a model alone (which may hold slashes: `meta-llama/llama-3`). */
function reviewerFlag(raw: string): ReviewerSetting {
  const slash = raw.indexOf('/');
  const provider = slash > 0 ? raw.slice(0, slash) : '';
  if (provider && Object.hasOwn(PRESETS, provider)) return { provider, model: raw.slice(slash + 1) };
  return { model: raw };
}

export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

/** One row, typed for code that goes over all of them. */
export function settingRow<K extends SettingKey>(key: K): SettingRow<Settings[K]> {
  return SETTINGS[key] as unknown as SettingRow<Settings[K]>;
}

/** The keys a config file may hold. */
export type ConfigKey = { [K in SettingKey]: (typeof SETTINGS)[K] extends { config: ConfigType } ? K : never }[SettingKey];
export const CONFIG_KEYS = SETTING_KEYS.filter((key): key is ConfigKey => settingRow(key).config !== undefined);

/** What a config file holds, every key optional. */
export type FileConfig = Partial<Pick<Settings, ConfigKey>>;
