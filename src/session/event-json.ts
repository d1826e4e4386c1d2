import { redactedJson } from './redact.js';
import { dropImageBytes } from './session-images.js';

/**
 * An event as one line of JSON for a reader outside the process (`--json`, the server's clients):
 * secrets redacted as in the session file, image bytes left out (their hash, type and size stay).
 */
export function eventJson(event: object, redact: (text: string) => string): string {
  return redactedJson(event, redact, dropImageBytes);
}
