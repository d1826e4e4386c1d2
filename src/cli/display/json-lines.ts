import type { AgentEvent } from '../../contracts/events.js';
import { collectSecrets, createRedactor, redactedJson } from '../../session/redact.js';

/**
 * `--json`: each AgentEvent as one line of JSON. It is read by programs and ends up in CI logs,
 * so keys are redacted as in the session file.
 */
export function createJsonLinesRenderer(out: { write(text: string): unknown }, apiKey?: string): (event: AgentEvent) => void {
  const redact = createRedactor(collectSecrets(process.env, [apiKey]));
  return (event) => out.write(`${redactedJson(event, redact)}\n`);
}
