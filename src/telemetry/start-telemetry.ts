import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { AgentEvent } from '../contracts/events.js';
import { EventSpans, type EventSpansOptions } from './event-spans.js';
import { redactingExporter } from './redacting-exporter.js';

export interface Telemetry {
  /** Passes the events through, making spans of them on the way. */
  wrap<Result>(events: AsyncGenerator<AgentEvent, Result>): AsyncGenerator<AgentEvent, Result>;
  /** Sends what is left and stops; call before the process exits. */
  shutdown(): Promise<void>;
}

export interface TelemetryOptions extends Omit<EventSpansOptions, 'tracer'> {
  serviceVersion?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Spans over OTLP/HTTP (JSON) to the endpoint the standard variables name
 * (OTEL_EXPORTER_OTLP_ENDPOINT or ..._TRACES_ENDPOINT, with OTEL_EXPORTER_OTLP_HEADERS), read by
 * the official exporter. Loaded only when telemetry is wanted (see telemetryWanted).
 */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  const env = options.env ?? process.env;
  const resource = resourceFromAttributes({
    'service.name': env.OTEL_SERVICE_NAME?.trim() || 'vibe-agent',
    ...(options.serviceVersion ? { 'service.version': options.serviceVersion } : {}),
  });
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(redactingExporter(new OTLPTraceExporter(), options.redact))] });
  const tracer = provider.getTracer('vibe-agent', options.serviceVersion);
  return {
    wrap: (events) => traced(events, new EventSpans({ ...options, tracer })),
    shutdown: () => provider.shutdown(),
  };
}

async function* traced<Result>(events: AsyncGenerator<AgentEvent, Result>, spans: EventSpans): AsyncGenerator<AgentEvent, Result> {
  try {
    for (;;) {
      const next = await events.next();
      if (next.done) return next.value;
      spans.observe(next.value);
      yield next.value;
    }
  } finally {
    spans.endAll();
  }
}
