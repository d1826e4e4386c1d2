/**
 * The library's public API: what a program embedding the agent needs. Everything else is internal
 * and may change; test/public-api.test.ts lists the runtime names so none is added by accident.
 */

// The agent loop: one async generator of events, and run() to drain it.
export { runAgent, run, type AgentOptions, type RunResult } from './core/loop.js';
export type { AgentContextHooks, PreparedMessages } from './core/agent-options.js';
export type { AgentEvent, AgentEventType, StopReason } from './contracts/events.js';
export type { RetryPolicy } from './core/request-with-retry.js';
export { DEFAULT_SYSTEM_PROMPT } from './core/system-prompt.js';

// Provider-neutral messages, as the loop keeps them and the events carry them.
export type { Message, SystemMessage, UserMessage, AssistantMessage, ToolMessage, ToolCall, Usage, ProviderData, Citation, ImageRef, ImageMediaType, StoredImageRef } from './contracts/messages.js';
export { loadImageFile, imageFromBytes, type LoadedImage } from './images/load-image.js';
export { IMAGE_LIMITS, imageLimitsFor, type ImageLimits } from './images/image-limits.js';
export { imagesRefusedBy } from './providers/image-capability.js';

// The built-in tools build their zod schemas at first need (the CLI checks valid calls without
// zod); a program that imports the library has zod loaded already, so they read it from here.
import { z } from 'zod';
import { provideZod } from './tools/zod-loader.js';
provideZod(z);

// Tools: define one, collect them in a registry that never throws.
export { defineTool, type ToolDefinition } from './tools/define-tool.js';
export { deferredTool, specOf, type ToolSpec } from './tools/deferred-tool.js';
export { ToolRegistry, type InvokeOptions, type RegistryOptions } from './tools/registry.js';
export type { Tool, ArgumentCheck, ToolContext, ToolOutput, ToolPreview, ToolResult, ToolCallStatus, ToolCategory, ToolPermission, PermissionSubject, Authorize, AuthorizeRequest } from './contracts/tool.js';

// The course's built-in tools.
export { calculatorTool } from './tools/builtin/calculator.js';
export { currentTimeTool } from './tools/builtin/current-time.js';
export { createFetchUrlTool, fetchUrlTool, type FetchUrlOptions } from './tools/builtin/fetch-url.js';
export { courseTools } from './tools/builtin/course.js';

// Coding tools: files, search, shell.
export { createFileTools } from './tools/coding/file-tools.js';
export type { WriteObserver } from './tools/coding/shared/observe-write.js';
export { createDiagnosticsObserver, type ConfiguredChecker, type DiagnosticsOptions, type DiagnosticsSetting } from './diagnostics/diagnostics-observer.js';
export { FileReadTracker } from './tools/coding/shared/read-tracker.js';
export type { FileToolOptions } from './tools/coding/shared/file-tool-options.js';
export type { FileAccess } from './tools/coding/shared/file-access.js';
export { createSearchTools, type SearchToolOptions } from './tools/coding/search-tools.js';
export type { RipgrepSetting } from './tools/coding/search/ripgrep-detect.js';
export { bashTool, createBashTool } from './tools/coding/shell/bash.js';

// Subagents: the task tool, one budget across the tree, agent definitions; the model's checklist.
export { withSubagents, type SubagentOptions } from './agents/subagents.js';
export type { ChildRunner, ChildRun } from './agents/agent-tree.js';
export { Budget, type BudgetLimits } from './core/budget.js';
export { BUILTIN_AGENTS, type AgentDefinition } from './agents/agent-definition.js';
export { loadAgents, type AgentDirectories } from './agents/load-agents.js';
export { parseAgentFile } from './agents/parse-agent-file.js';
export { createTodoTools, restoreTodos, TodoList, type TodoItem } from './tools/builtin/todo.js';
export { PLAN_MODE_PROMPT } from './core/system-prompt.js';
export type { AgentSpend } from './contracts/events.js';

// Permissions: the policy behind `authorize` (modes, allow and deny rules, asking the user).
export { createPermissionPolicy, type PermissionMode, type PermissionOptions, type PermissionPolicy } from './permissions/permission-policy.js';
export { parsePlanScope, planDeviation, type PlanScope } from './permissions/plan-scope.js';
export type { AskApproval, ApprovalRequest, ApprovalAnswer } from './tools/approval.js';

// Providers: one interface, one class per wire protocol, presets for the known services.
export type { Provider, ProviderEvent, ModelRequest, ModelResponse, ToolSchema, FinishReason, LeftOut, ReplyOrigin } from './contracts/provider.js';
export { ProviderError, type ProviderErrorKind } from './contracts/provider-error.js';
export { resolveProvider, createProvider, ConfigError, type ProviderSettings } from './providers/create-provider.js';
export { PRESETS, type ProviderPreset, type ProviderProtocol, type OpenAIWire } from './providers/presets.js';
export { OpenAIProvider, type OpenAIProviderOptions } from './providers/openai/openai-provider.js';
export { ResponsesProvider, type ResponsesProviderOptions } from './providers/openai-responses/responses-provider.js';
export { AnthropicProvider, type AnthropicProviderOptions } from './providers/anthropic/anthropic-provider.js';
export type { ServerSearchOptions } from './providers/shared/server-search.js';
export { GoogleProvider, type GoogleProviderOptions } from './providers/google/google-provider.js';
export { promptJsonProvider } from './providers/prompt-json/prompt-json-provider.js';
export { ScriptedProvider, type ScriptedReply, type ScriptStep } from './providers/scripted.js';
export { costOf, priceOf, setModelPrices, type ModelPrice, type PriceSetting } from './providers/pricing.js';
export type { CacheTtl } from './providers/anthropic/cache-breakpoints.js';
export type { PromptCacheOptions } from './providers/openai/prompt-cache-fields.js';

// Context: cap, stub and compact the history before each request.
export { createContextPolicy, type ContextPolicy, type ContextPolicyOptions, type ToolOffer } from './context/policy.js';
export { CacheWatch, type CacheReport } from './core/cache-watch.js';
export { LeftOutNotes } from './core/left-out-notes.js';
export { explainMiss, type MissReason, type MissKind } from './core/explain-miss.js';
export { compactHistory, type CompactOptions, type CompactResult, type CompactionEvent } from './context/compact-history.js';
export { MemoryOutputStore, DirectoryOutputStore, type OutputStore } from './tools/output-store.js';

// The conversation core: one object per session that every front end drives (see docs/conversation.md).
export { openConversation, type ConversationCore } from './conversation/open-conversation.js';
export { runChildConversation } from './conversation/child-conversation.js';
export { promptEvents, agentEventOf } from './conversation/prompt-events.js';
export type { ConversationParts, RunWatcher } from './conversation/conversation-parts.js';
export type { Conversation, ConversationEvent, ConversationNotice, ConversationState, PromptOptions, PromptOutcome, PromptRefusal, ModeChange, ModeChangedBy, QuestionDesk, PendingQuestion, Answerer } from './conversation/conversation-types.js';
export type { SessionChoice } from './conversation/session-file.js';
// Goals: work until an independent judge with read-only checks says a condition holds (see docs/goals.md).
export { pursueGoal, type GoalHost, type GoalSpec, type GoalResult } from './conversation/goal/pursue-goal.js';
export { createCheckRunner, type CheckRunner, type CheckSetup } from './conversation/goal/goal-checks.js';
export { unfinishedGoal, capsLeft, type UnfinishedGoal } from './conversation/goal/goal-resume.js';
export { DEFAULT_GOAL_CAPS, DEFAULT_STALL_TURNS, type GoalCaps, type GoalNotice, type GoalOutcome, type GoalSpent, type GoalEvidence } from './conversation/goal/goal-types.js';
export { readEventsAfter } from './session/session-events.js';

// Background sessions in worktrees: land one into its checkout (what `vibe-agent land` and POST /v1/sessions/{id}/land run).
export { landSession } from './background/land-session.js';
export { readBackgroundEntries, type BackgroundEntry } from './background/background-registry.js';
export type { LandRequest, LandResult, LandNote, LandedFile } from './background/land-types.js';

// Sessions: append-only JSONL files, resumed by rebuilding the history.
export { createSession, withSystemPrompt, type OpenedSession, type SessionStoreOptions } from './session/session-store.js';
export { resumeSession } from './session/resume-session.js';
export type { SessionWriter } from './session/session-writer.js';
export { listSessions, findSession, type SessionSummary, type SessionLookup } from './session/list-sessions.js';
export { importForeignSession, parseForeignSession, NotASessionError, type ImportOptions, type ImportOutcome } from './session/import/import-session.js';
export { findForeignSessions, type ForeignSessionSummary } from './session/import/find-foreign-sessions.js';
export { readSessionFile, type ReadSession } from './session/read-session.js';
export { buildTrace, type TraceOptions } from './trace/build-trace.js';
export { tracePageHtml } from './trace/page-html.js';
export { serveTracePage, type TraceServer } from './trace/trace-server.js';
export { chartAssets, type ChartAssets } from './trace/uplot-assets.js';
export type { TraceData, TraceTurn, TraceToolCall, TraceMessage, TraceCompaction, TraceTotals } from './trace/trace-data.js';
export type { SessionRecord } from './session/records.js';
export { collectSecrets, createRedactor } from './session/redact.js';
export { rebuildRequests, requestDigest, type RequestRecord, type RebuiltRequest } from './session/request-record.js';
export { recordingRequests } from './session/recording-provider.js';

// Replay: a recorded run sent again through the loop (offline, or against a live model).
export { recordedRun, recordedRuns, NotReplayable, type RecordedRun, type RecordedExchange } from './replay/recorded-run.js';
export { replayRun, type ReplaySetup, type ReplayOutcome } from './replay/replay-run.js';
export { againstRun, type AgainstOutcome } from './replay/against-run.js';
export { firstDifference, type Difference } from './replay/first-difference.js';

// OpenTelemetry: spans from the event stream, loaded on first use.
export { loadTelemetry, type Telemetry, type TelemetryOptions } from './telemetry/load-telemetry.js';
export { telemetryWanted } from './telemetry/telemetry-wanted.js';

// Memory: AGENTS.md files into the system prompt, and the tool that adds to them.
export { buildSystemPrompt, type SystemPromptOptions } from './memory/build-system-prompt.js';
export { collectMemorySources, type MemorySource, type MemoryLocation } from './memory/memory-sources.js';
export { createRememberTool, rememberTool } from './memory/remember-tool.js';

// Skills and custom commands: packaged instructions, loaded when the model (or the user) asks.
export { discoverSkills, type Skill, type SkillCatalog } from './skills/discover-skills.js';
export { setUpSkills, type SkillSetup } from './skills/skill-setup.js';
export { ToolScope } from './skills/tool-scope.js';
export { discoverCommands, type CustomCommand, type CommandCatalog } from './commands/discover-commands.js';
export { expandCommand, findInvocation, type RunShell, type Expanded } from './commands/expand-command.js';
export { shellThroughTool } from './commands/shell-through-tool.js';

// Private knowledge: BM25 search over documentation folders.
export { createSearchDocsTool, type SearchDocsOptions } from './knowledge/search-docs-tool.js';
export { DocsIndex, type DocsHit, type IndexReport } from './knowledge/docs-index.js';
export { indexPath, type KnowledgeSource } from './knowledge/knowledge-source.js';

// The interactive terminal session.
export { InteractiveSession, type InteractiveOptions, type TerminalInput, type TerminalOutputStream } from './cli/tui/interactive.js';
export type { InteractiveServices, SessionEntry, MemoryFile } from './cli/tui/services.js';
export { createTheme, type Theme } from './cli/display/theme.js';
