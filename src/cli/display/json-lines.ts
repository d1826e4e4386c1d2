import type { AgentEvent } from '../../contracts/events.js';
import { eventJson } from '../../session/event-json.js';
import { collectSecrets, createRedactor } from '../../session/redact.js';
import { StreamRedactor } from '../../session/stream-redactor.js';
import { agentEnvironment } from '../../secrets/held-secrets.js';

type Delta = Extract<AgentEvent, { type: 'text_delta' | 'reasoning_delta' }>;

/**
 * `--json`: each AgentEvent as one line of JSON. It is read by programs and ends up in CI logs,
 * so keys are redacted as in the session file, and across streamed pieces too: a delta's end that
 * could begin a key waits for the next piece of its stream (or goes out, redacted, as a delta of
 * its own before the next other event), so a key the model repeats never comes out in parts.
 */
export function createJsonLinesRenderer(out: { write(text: string): unknown }, apiKey?: string): (event: AgentEvent) => void {
  const secrets = collectSecrets(agentEnvironment(), [apiKey]);
  const redact = createRedactor(secrets);
  const streams = new StreamRedactor(secrets);
  const last = new Map<string, Delta>();
  // The same text a server's client gets for the event (without its number).
  const line = (event: AgentEvent) => out.write(`${eventJson(event, redact)}\n`);
  return (event) => {
    if (event.type === 'text_delta' || event.type === 'reasoning_delta') {
      const stream = `${event.agent ?? ''}\u0000${event.type}`;
      last.set(stream, event);
      const text = streams.push(stream, event.text);
      // Already redacted; the line is written as is (a second pass could not find more).
      if (text) out.write(`${JSON.stringify({ ...event, text })}\n`);
      return;
    }
    for (const [stream, text] of streams.flush()) out.write(`${JSON.stringify({ ...last.get(stream)!, text })}\n`);
    // Image bytes are left out (their hash, type and size stay): a line per event must stay a line.
    line(event);
  };
}
