import type { AgentEvent } from '../../contracts/events.js';
import { collectSecrets, createRedactor, redactedJson } from '../../session/redact.js';
import { dropImageBytes } from '../../session/session-images.js';
import { agentEnvironment } from '../../secrets/held-secrets.js';

/**
 * `--json`: each AgentEvent as one line of JSON. It is read by programs and ends up in CI logs,
 * so keys are redacted as in the session file.
 */
export function createJsonLinesRenderer(out: { write(text: string): unknown }, apiKey?: string): (event: AgentEvent) => void {
  const redact = createRedactor(collectSecrets(agentEnvironment(), [apiKey]));
  // Image bytes are left out (their hash, type and size stay): a line per event must stay a line.
  return (event) => out.write(`${redactedJson(event, redact, dropImageBytes)}\n`);
}
