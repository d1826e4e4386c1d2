import type { Attributes, AttributeValue } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/**
 * The span exporter every span leaves through, with every string in it redacted: attributes
 * (content or not), event attributes, the status message and the name. The spans' own code redacts
 * the content it records; this is the writer's guarantee that nothing else carries a key out (a
 * tool's error text in a status message, a stop's error).
 */
export function redactingExporter(inner: SpanExporter, redact: (text: string) => string): SpanExporter {
  return {
    export: (spans, done) => inner.export(spans.map((span) => redactedSpan(span, redact)), done),
    shutdown: () => inner.shutdown(),
    ...(inner.forceFlush ? { forceFlush: () => inner.forceFlush!() } : {}),
  };
}

function redactedSpan(span: ReadableSpan, redact: (text: string) => string): ReadableSpan {
  const status = span.status.message === undefined ? span.status : { ...span.status, message: redact(span.status.message) };
  const overrides: Partial<ReadableSpan> = {
    name: redact(span.name),
    status,
    attributes: redactedAttributes(span.attributes, redact),
    events: span.events.map((event) => ({ ...event, name: redact(event.name), ...(event.attributes ? { attributes: redactedAttributes(event.attributes, redact) } : {}) })),
  };
  // A proxy, not a copy: the exporter reads the span's other fields (getters and methods among them) from the span itself.
  return new Proxy(span, { get: (target, key) => (key in overrides ? overrides[key as keyof ReadableSpan] : (Reflect.get(target, key, target) as unknown)) });
}

function redactedAttributes(attributes: Attributes, redact: (text: string) => string): Attributes {
  return Object.fromEntries(Object.entries(attributes).map(([key, value]) => [key, redactedValue(value, redact)]));
}

function redactedValue(value: AttributeValue | undefined, redact: (text: string) => string): AttributeValue | undefined {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item: unknown) => (typeof item === 'string' ? redact(item) : item)) as AttributeValue;
  return value;
}
