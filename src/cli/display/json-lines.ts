import type { AgentEvent } from '../../contracts/events.js';
import { eventJson } from '../../session/event-json.js';
import { collectSecrets, createRedactor } from '../../session/redact.js';
import { agentEnvironment } from '../../secrets/held-secrets.js';

/**
 * `--json`: each AgentEvent as one line of JSON. It is read by programs and ends up in CI logs,
 * so keys are redacted as in the session file.
 */
export function createJsonLinesRenderer(out: { write(text: string): unknown }, apiKey?: string): (event: AgentEvent) => void {
  const redact = createRedactor(collectSecrets(agentEnvironment(), [apiKey]));
  // The same text a server's client gets for the event (without its number): a line per event must stay a line.
  return (event) => out.write(`${eventJson(event, redact)}\n`);
}
