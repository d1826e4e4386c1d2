import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { AgentEvent } from '../contracts/events.js';
import type { Usage } from '../contracts/messages.js';
import { GEN_AI, outputMessages, userMessages } from './gen-ai-attributes.js';

export interface EventSpansOptions {
  tracer: Tracer;
  /** Prompts, replies, tool arguments and results on the spans (off unless the user opts in). */
  captureContent: boolean;
  /** Applied to captured content (the user's keys). */
  redact: (text: string) => string;
  temperature?: number;
  maxTokens?: number;
  /** The session id, when the run is saved. */
  conversationId?: string;
}

interface OpenSpan {
  span: Span;
  context: Context;
}

/** What is open for one agent of the tree (the top-level one, or a subagent by its path). */
interface AgentSpans {
  run: OpenSpan;
  provider: string;
  model: string;
  turn?: OpenSpan & { number: number; chatted: boolean };
  /** When the turn's model request started: after the turn's context work (compaction). */
  requestStart: number;
  usage?: Usage;
  /** The latest reply's finish reason: the run's answer ends with it. */
  finishReason?: string;
  tools: Map<string, OpenSpan & { name: string; claimed?: boolean }>;
}

const FAILED_STOPS = new Set(['provider_error', 'repeated_call', 'cost_limit', 'token_limit', 'turn_limit', 'aborted']);

/**
 * Turns the AgentEvent stream into spans, GenAI semantic conventions: `invoke_agent` per run,
 * a `turn N` span per turn, `chat {model}` per model request and `execute_tool {name}` per tool
 * call under it. A subagent's run goes under the `task` call that started it.
 */
export class EventSpans {
  private readonly agents = new Map<string, AgentSpans>();

  constructor(private readonly options: EventSpansOptions) {}

  observe(event: AgentEvent): void {
    const key = event.agent ?? '';
    if (event.type === 'run_start') return this.startRun(key, event);
    const agent = this.agents.get(key);
    if (!agent) return;
    const now = Date.now();
    switch (event.type) {
      case 'turn_start':
        this.endTurn(agent);
        agent.turn = { ...this.child(agent.run, `turn ${event.turn}`, { 'vibe_agent.turn': event.turn }), number: event.turn, chatted: false };
        agent.requestStart = now;
        agent.usage = undefined;
        break;
      case 'compaction':
        agent.turn?.span.addEvent('compaction', { 'vibe_agent.tokens_before': event.tokensBefore, 'vibe_agent.tokens_after': event.tokensAfter, ...(event.fallback ? { 'vibe_agent.fallback': event.fallback } : {}) });
        agent.requestStart = now;
        break;
      case 'history_repaired':
        agent.turn?.span.addEvent('history_repaired', { 'vibe_agent.repairs': event.repairs.length });
        agent.requestStart = now;
        break;
      case 'retry':
        agent.turn?.span.addEvent('retry', { 'vibe_agent.attempt': event.attempt, 'vibe_agent.delay_ms': event.delayMs });
        break;
      case 'usage':
        agent.usage = event.usage;
        break;
      case 'assistant_message': {
        const chat = this.chatSpan(agent);
        agent.finishReason = event.finishReason;
        chat.setAttribute(GEN_AI.finishReasons, [event.finishReason]);
        if (this.options.captureContent) chat.setAttribute(GEN_AI.outputMessages, this.options.redact(outputMessages(event.message, event.finishReason)));
        chat.end(now);
        break;
      }
      case 'tool_call_start': {
        const parent = agent.turn ?? agent.run;
        const attributes = { [GEN_AI.operation]: 'execute_tool', [GEN_AI.toolName]: event.call.name, [GEN_AI.toolCallId]: event.call.id, [GEN_AI.toolType]: 'function' };
        const open = this.child(parent, `execute_tool ${event.call.name}`, attributes);
        if (this.options.captureContent) open.span.setAttribute(GEN_AI.toolArguments, this.options.redact(event.call.arguments));
        agent.tools.set(event.call.id, { ...open, name: event.call.name });
        break;
      }
      case 'permission_review': {
        const open = agent.tools.get(event.id);
        if (!open) break;
        const attributes = {
          'vibe_agent.permission.tier': event.tier,
          'vibe_agent.permission.verdict': event.verdict,
          'vibe_agent.permission.reason': this.options.redact(event.reason),
          ...(event.reviewer ? { 'vibe_agent.permission.reviewer_model': `${event.reviewer.provider}/${event.reviewer.model}` } : {}),
          ...(event.digest ? { 'vibe_agent.permission.input_digest': event.digest } : {}),
          ...(event.cost !== undefined ? { 'vibe_agent.permission.cost_usd': event.cost } : {}),
          ...(event.usage ? { 'vibe_agent.permission.input_tokens': event.usage.inputTokens, 'vibe_agent.permission.output_tokens': event.usage.outputTokens } : {}),
          ...(event.handedBack ? { 'vibe_agent.permission.handed_back': true } : {}),
        };
        open.span.setAttributes(attributes);
        open.span.addEvent('permission_review', attributes);
        break;
      }
      case 'tool_call_end': {
        const open = agent.tools.get(event.id);
        if (!open) break;
        agent.tools.delete(event.id);
        if (this.options.captureContent) open.span.setAttribute(GEN_AI.toolResult, this.options.redact(event.output));
        open.span.setAttribute('vibe_agent.tool.status', event.status);
        if (event.isError) fail(open.span, event.status === 'denied' ? 'denied' : 'tool_error', this.options.redact(event.output).slice(0, 200));
        open.span.end(now);
        break;
      }
      case 'turn_end':
        this.endTurn(agent);
        break;
      case 'stop':
        this.stopRun(key, agent, event);
        break;
    }
  }

  /** Ends whatever is still open (the stream ended without a stop: an exception, an interrupt). */
  endAll(): void {
    for (const [key, agent] of this.agents) {
      for (const open of agent.tools.values()) open.span.end();
      if (agent.turn) agent.turn.span.end();
      fail(agent.run.span, 'interrupted', 'the run ended without a stop event');
      agent.run.span.end();
      this.agents.delete(key);
    }
  }

  private startRun(key: string, event: Extract<AgentEvent, { type: 'run_start' }>): void {
    const name = key ? key : 'vibe-agent';
    const attributes = {
      [GEN_AI.operation]: 'invoke_agent',
      [GEN_AI.agentName]: name,
      [GEN_AI.provider]: event.provider,
      [GEN_AI.requestModel]: event.model,
      ...(this.options.conversationId ? { [GEN_AI.conversation]: this.options.conversationId } : {}),
    };
    const parent = key ? this.taskCallOf(key) : undefined;
    const context = parent?.context ?? ROOT_CONTEXT;
    const span = this.options.tracer.startSpan(`invoke_agent ${name}`, { kind: SpanKind.INTERNAL, attributes }, context);
    if (this.options.captureContent) span.setAttribute(GEN_AI.inputMessages, this.options.redact(userMessages(event.input)));
    this.agents.set(key, { run: { span, context: trace.setSpan(ROOT_CONTEXT, span) }, provider: event.provider, model: event.model, requestStart: Date.now(), tools: new Map() });
  }

  /** The open `task` call of the parent agent that this subagent (path "main/task-2") runs for. */
  private taskCallOf(path: string): OpenSpan | undefined {
    const segments = path.split('/');
    const parentKey = segments.length <= 2 ? '' : segments.slice(0, -1).join('/');
    const parent = this.agents.get(parentKey);
    if (!parent) return undefined;
    const call = [...parent.tools.values()].find((open) => open.name === 'task' && !open.claimed);
    if (call) call.claimed = true;
    return call ?? parent.turn ?? parent.run;
  }

  private chatSpan(agent: AgentSpans): Span {
    const parent = agent.turn ?? agent.run;
    if (agent.turn) agent.turn.chatted = true;
    const attributes = {
      [GEN_AI.operation]: 'chat',
      [GEN_AI.provider]: agent.provider,
      [GEN_AI.requestModel]: agent.model,
      ...(this.options.temperature !== undefined ? { [GEN_AI.temperature]: this.options.temperature } : {}),
      ...(this.options.maxTokens !== undefined ? { [GEN_AI.maxTokens]: this.options.maxTokens } : {}),
      ...(agent.usage ? { [GEN_AI.inputTokens]: agent.usage.inputTokens, [GEN_AI.outputTokens]: agent.usage.outputTokens } : {}),
      ...(agent.usage?.estimated ? { 'vibe_agent.usage.estimated': true } : {}),
    };
    return this.options.tracer.startSpan(`chat ${agent.model}`, { kind: SpanKind.CLIENT, attributes, startTime: agent.requestStart }, parent.context);
  }

  private stopRun(key: string, agent: AgentSpans, event: Extract<AgentEvent, { type: 'stop' }>): void {
    // A request that failed: its chat span carries the error.
    if (event.reason === 'provider_error' && agent.turn && !agent.turn.chatted) {
      const chat = this.chatSpan(agent);
      fail(chat, 'provider_error', event.error);
      chat.end();
    }
    for (const open of agent.tools.values()) open.span.end();
    agent.tools.clear();
    this.endTurn(agent);
    const run = agent.run.span;
    run.setAttributes({ [GEN_AI.inputTokens]: event.usage.inputTokens, [GEN_AI.outputTokens]: event.usage.outputTokens, 'vibe_agent.stop_reason': event.reason, 'vibe_agent.turns': event.turns });
    if (event.cost !== undefined) run.setAttribute('vibe_agent.cost_usd', event.cost);
    if (this.options.captureContent && event.answer) run.setAttribute(GEN_AI.outputMessages, this.options.redact(outputMessages({ content: event.answer, toolCalls: [] }, agent.finishReason ?? 'stop')));
    if (FAILED_STOPS.has(event.reason)) fail(run, event.reason, event.error);
    run.end();
    this.agents.delete(key);
  }

  private endTurn(agent: AgentSpans): void {
    agent.turn?.span.end();
    agent.turn = undefined;
  }

  private child(parent: OpenSpan, name: string, attributes: Record<string, string | number>): OpenSpan {
    const span = this.options.tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, parent.context);
    return { span, context: trace.setSpan(ROOT_CONTEXT, span) };
  }
}

function fail(span: Span, type: string, message?: string): void {
  span.setAttribute(GEN_AI.errorType, type);
  span.setStatus({ code: SpanStatusCode.ERROR, ...(message ? { message } : {}) });
}
