import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/contracts/events.js';
import { emptyUsage } from '../src/contracts/messages.js';
import { EventSpans } from '../src/telemetry/event-spans.js';
import { genAiSchemaViolations } from './support/gen-ai-schemas.js';

const usage = { ...emptyUsage(), inputTokens: 10, outputTokens: 2 };

/** A parent whose turn 1 starts a subagent through `task`; the child's events carry its path. */
const EVENTS: AgentEvent[] = [
  { type: 'run_start', provider: 'openai', model: 'm', tools: ['task'], input: 'delegate' },
  { type: 'turn_start', turn: 1 },
  { type: 'usage', turn: 1, usage, total: usage },
  { type: 'assistant_message', turn: 1, finishReason: 'tool_calls', message: { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'task', arguments: '{"prompt":"look"}' }] } },
  { type: 'tool_call_start', turn: 1, call: { id: 't1', name: 'task', arguments: '{"prompt":"look"}' } },
  { type: 'run_start', provider: 'openai', model: 'm', tools: ['read_file'], input: 'look', agent: 'main/task-1' },
  { type: 'turn_start', turn: 1, agent: 'main/task-1' },
  { type: 'usage', turn: 1, usage, total: usage, agent: 'main/task-1' },
  { type: 'assistant_message', turn: 1, finishReason: 'stop', message: { role: 'assistant', content: 'found it', toolCalls: [] }, agent: 'main/task-1' },
  { type: 'turn_end', turn: 1, messages: [], agent: 'main/task-1' },
  { type: 'stop', reason: 'answered', answer: 'found it', turns: 1, usage, agent: 'main/task-1' },
  { type: 'tool_call_end', turn: 1, id: 't1', name: 'task', status: 'ok', isError: false, output: 'found it', durationMs: 5 },
  { type: 'turn_end', turn: 1, messages: [] },
  { type: 'turn_start', turn: 2 },
  { type: 'stop', reason: 'provider_error', error: 'HTTP 500', answer: null, turns: 2, usage },
];

describe('EventSpans', () => {
  it('nests a subagent run under the task call that started it, and marks a failed request and run', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const spans = new EventSpans({ tracer: provider.getTracer('test'), captureContent: false, redact: (text) => text, temperature: 0 });
    for (const event of EVENTS) spans.observe(event);
    const finished = exporter.getFinishedSpans();
    const one = (name: string) => finished.filter((span) => span.name === name);
    const parentOf = (span: (typeof finished)[number]) => span.parentSpanContext?.spanId;
    const [run] = one('invoke_agent vibe-agent');
    const [child] = one('invoke_agent main/task-1');
    const [task] = one('execute_tool task');
    expect(parentOf(task!)).toBe(one('turn 1').find((turn) => parentOf(turn) === run!.spanContext().spanId)!.spanContext().spanId);
    expect(parentOf(child!)).toBe(task!.spanContext().spanId);
    expect(child!.spanContext().traceId).toBe(run!.spanContext().traceId);
    const childChat = one('chat m').find((chat) => one('turn 1').some((turn) => turn.spanContext().spanId === parentOf(chat) && parentOf(turn) === child!.spanContext().spanId));
    expect(childChat?.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    // Turn 2's request failed: a chat span with the error, and the run with it.
    const failed = one('chat m').find((chat) => chat.attributes['error.type'] === 'provider_error');
    expect(parentOf(failed!)).toBe(one('turn 2')[0]!.spanContext().spanId);
    expect(run!.attributes['error.type']).toBe('provider_error');
    expect(run!.status.code).toBe(2);
    // Everything opened was ended.
    expect(finished).toHaveLength(9);
  });

  it("with content captured, every span's GenAI messages validate against the conventions' schemas; the run's output has its finish_reason", () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const spans = new EventSpans({ tracer: provider.getTracer('test'), captureContent: true, redact: (text) => text });
    for (const event of EVENTS) spans.observe(event);
    const finished = exporter.getFinishedSpans().map((span) => ({ name: span.name, attributes: span.attributes }));
    const child = finished.find((span) => span.name === 'invoke_agent main/task-1')!;
    expect(JSON.parse(String(child.attributes['gen_ai.output.messages']))).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: 'found it' }], finish_reason: 'stop' }]);
    const withMessages = finished.filter((span) => span.attributes['gen_ai.output.messages'] !== undefined || span.attributes['gen_ai.input.messages'] !== undefined);
    expect(withMessages.map((span) => span.name).sort()).toEqual(['chat m', 'chat m', 'invoke_agent main/task-1', 'invoke_agent vibe-agent']);
    expect(genAiSchemaViolations(finished)).toEqual([]);
    // A reply that asked for tools ends as the conventions' `tool_call`.
    const asked = finished.find((span) => String(span.attributes['gen_ai.output.messages']).includes('"task"'))!;
    expect(JSON.parse(String(asked.attributes['gen_ai.output.messages']))[0].finish_reason).toBe('tool_call');
  });
});
