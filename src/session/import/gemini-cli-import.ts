import { basename } from 'node:path';
import type { ImageRef, ToolCall } from '../../contracts/messages.js';
import { imageRef } from './content-parts.js';
import { mapToolCall } from './foreign-tools.js';
import { ImportStats, type ImportEntry, type ParsedForeignSession } from './import-model.js';
import { arr, jsonLines, obj, str } from './source-lines.js';

/** Message types the model never saw (the UI's own notices). */
const NOT_SENT = new Set(['info', 'error', 'warning']);

/**
 * A Gemini CLI chat recording (`~/.gemini/tmp/<project>/chats/session-*.jsonl`, or the older
 * whole-file `.json`). The JSONL form is a log: a metadata line, then message records written
 * again whole each time they change (the last write of an id wins, in its first place),
 * `{"$set": {…}}` patches to the metadata (a `messages` list replaces them all) and
 * `{"$rewindTo": id}`, which drops that message and everything after it.
 */
export function parseGeminiCli(text: string, file: string): ParsedForeignSession {
  const stats = new ImportStats();
  const messages = new Map<string, { record: Record<string, unknown>; line: number }>();
  let meta: Record<string, unknown> = {};
  const upsert = (record: Record<string, unknown>, line: number) => {
    const id = str(record.id) ?? `line-${line}`;
    if (messages.has(id)) stats.skip('earlier write of a message rewritten later (upsert by id)');
    messages.set(id, { record, line });
  };
  const trimmed = text.trimStart();
  const whole = trimmed.startsWith('{') ? safeParse(trimmed) : undefined;
  if (whole && Array.isArray(whole.messages)) {
    stats.lines = 1;
    meta = whole;
    whole.messages.forEach((message, index) => obj(message) && upsert(obj(message)!, index + 1));
  } else {
    const { lines, broken, total } = jsonLines(text);
    stats.lines = total;
    if (broken) stats.skip('broken line (not JSON)', broken);
    for (const { line, value } of lines) {
      if (typeof value.$rewindTo === 'string') {
        const ids = [...messages.keys()];
        const at = ids.indexOf(value.$rewindTo);
        for (const id of at < 0 ? ids : ids.slice(at)) messages.delete(id);
        stats.skip('message removed by a $rewindTo', at < 0 ? ids.length : ids.length - at);
      } else if (obj(value.$set)) {
        const patch = obj(value.$set)!;
        meta = { ...meta, ...patch };
        if (Array.isArray(patch.messages)) {
          messages.clear();
          patch.messages.forEach((message) => obj(message) && upsert(obj(message)!, line));
        }
      } else if (typeof value.id === 'string' && typeof value.type === 'string') upsert(value, line);
      else if (typeof value.sessionId === 'string') meta = { ...meta, ...value };
      else stats.skip(`record without id or type`);
    }
  }
  const entries: ImportEntry[] = [];
  const push = (body: ImportEntry['body'], line: number, id: string) => entries.push({ id, parentId: entries.at(-1)?.id ?? null, line, body });
  for (const [id, { record, line }] of messages) {
    const type = str(record.type);
    if (type && NOT_SENT.has(type)) {
      stats.skip(`${type} notice (not sent to the model)`);
      continue;
    }
    const { text, images } = parts(record.content, stats);
    if (type === 'user') {
      if (!text.trim() && !images.length) continue;
      push({ kind: 'user', text, ...(images.length ? { images } : {}) }, line, id);
      stats.messages++;
      continue;
    }
    if (type !== 'gemini') {
      stats.skip(`message type "${type}"`);
      continue;
    }
    const thoughts = arr(record.thoughts).map((thought) => [str(obj(thought)?.subject), str(obj(thought)?.description)].filter(Boolean).join(': ')).filter(Boolean);
    const calls: ToolCall[] = [];
    const results: Array<{ callId: string; content: string; isError: boolean; images: ImageRef[] }> = [];
    for (const raw of arr(record.toolCalls)) {
      const call = obj(raw);
      if (!call) continue;
      const callId = str(call.id) ?? `${id}-call-${calls.length}`;
      calls.push(mapToolCall('gemini-cli', { id: callId, name: str(call.name) ?? 'unknown', arguments: JSON.stringify(call.args ?? {}) }, stats));
      const result = parts(call.result, stats);
      const status = str(call.status);
      results.push({ callId, content: result.text || (typeof call.resultDisplay === 'string' ? call.resultDisplay : ''), isError: status === 'error' || status === 'cancelled', images: result.images });
    }
    if (thoughts.length) stats.reasoning++;
    push({ kind: 'assistant', text, calls, ...(thoughts.length ? { reasoning: thoughts.join('\n\n') } : {}), ...(str(record.model) ? { model: str(record.model)! } : {}) }, line, id);
    stats.messages++;
    results.forEach((result, index) => {
      push({ kind: 'result', callId: result.callId, name: calls[index]!.name, content: result.content, isError: result.isError, ...(result.images.length ? { images: result.images } : {}) }, line, `${id}#${result.callId}`);
      stats.results++;
    });
  }
  return { agent: 'gemini-cli', sourceId: str(meta.sessionId) ?? basename(file).replace(/\.jsonl?$/, ''), entries, sidechains: [], stats };
}

/** Gemini content: a string, a Part, or a list of Parts (text, inlineData, functionResponse). */
function parts(content: unknown, stats: ImportStats): { text: string; images: ImageRef[] } {
  if (typeof content === 'string') return { text: content, images: [] };
  const list = Array.isArray(content) ? content : content ? [content] : [];
  const texts: string[] = [];
  const images: ImageRef[] = [];
  for (const raw of list) {
    if (typeof raw === 'string') texts.push(raw);
    const part = obj(raw);
    if (!part) continue;
    if (typeof part.text === 'string' && part.thought !== true) texts.push(part.text);
    const inline = obj(part.inlineData);
    if (inline) {
      const image = imageRef(inline.mimeType, inline.data, stats);
      if (image) images.push(image);
    }
    const response = obj(obj(part.functionResponse)?.response);
    if (response) texts.push(typeof response.output === 'string' ? response.output : typeof response.error === 'string' ? response.error : JSON.stringify(response));
  }
  return { text: texts.join('\n'), images };
}

function safeParse(text: string): Record<string, unknown> | undefined {
  try {
    return obj(JSON.parse(text));
  } catch {
    return undefined;
  }
}
