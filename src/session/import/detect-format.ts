import type { ForeignAgent } from './import-model.js';
import { obj, str } from './source-lines.js';

/**
 * Which agent wrote a session file, from its first few records (never its name or place: a file
 * copied elsewhere still imports). Undefined when it is none of the four.
 */
export function detectFormat(text: string): ForeignAgent | undefined {
  const head = text.trimStart();
  if (head.startsWith('{') && /"sessionId"/.test(head.slice(0, 4096))) {
    const whole = parse(head.replace(/\s*\n\s*/g, ' '));
    if (whole && Array.isArray(whole.messages)) return 'gemini-cli';
  }
  let seen = 0;
  for (const line of head.split('\n', 40)) {
    const record = parse(line);
    if (!record) continue;
    seen++;
    const type = str(record.type);
    if (type === 'session' && ('cwd' in record || 'version' in record)) return 'pi';
    if (type === 'session_meta' || type === 'response_item' || type === 'turn_context' || type === 'event_msg' || type === 'compacted' || 'record_type' in record) return 'codex';
    if (seen === 1 && typeof record.id === 'string' && 'instructions' in record) return 'codex';
    if (typeof record.sessionId === 'string' && ('projectHash' in record || 'startTime' in record)) return 'gemini-cli';
    if ('$rewindTo' in record || '$set' in record) return 'gemini-cli';
    if ('uuid' in record && (type === 'user' || type === 'assistant' || type === 'system' || type === 'summary')) return 'claude-code';
    if ((type === 'summary' && 'leafUuid' in record) || (type === 'file-history-snapshot' && 'messageId' in record)) return 'claude-code';
    if (type === 'message' && obj(record.message) && 'parentId' in record) return 'pi';
  }
  return undefined;
}

function parse(line: string): Record<string, unknown> | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    return obj(JSON.parse(trimmed));
  } catch {
    return undefined;
  }
}
