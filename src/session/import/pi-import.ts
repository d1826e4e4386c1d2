import { basename } from 'node:path';
import type { ProviderData, ToolCall } from '../../contracts/messages.js';
import { textAndImages } from './content-parts.js';
import { mapToolCall } from './foreign-tools.js';
import { ImportStats, type EntryBody, type ImportEntry, type ParsedForeignSession } from './import-model.js';
import { arr, jsonLines, obj, str } from './source-lines.js';

/** Entries that change settings or annotate the tree: links in it, nothing the model saw. */
const PASS_THROUGH = new Set(['model_change', 'thinking_level_change', 'label', 'custom', 'session_info']);

/**
 * A pi session (`~/.pi/agent/sessions/--<cwd>--/*.jsonl`): a `session` header, then entries.
 * Version 3 (and 2) entries carry `id`/`parentId`, a tree whose leaf is the last entry written;
 * version 1 files have neither (each entry follows the one before, and a compaction names the
 * first entry it keeps by its index in the file).
 */
export function parsePi(text: string, file: string): ParsedForeignSession {
  const stats = new ImportStats();
  const { lines, broken, total } = jsonLines(text);
  stats.lines = total;
  if (broken) stats.skip('broken line (not JSON)', broken);
  const header = lines.find((line) => line.value.type === 'session')?.value;
  const entries: ImportEntry[] = [];
  /** Entry id → the entry it resolves to (a pass-through entry resolves to its parent's). */
  const alias = new Map<string, string | null>();
  const calls = new Map<string, string>();
  let previous: string | null = null;
  let activeLeaf: string | undefined;
  /** v1: the file's entries by index (header included), for firstKeptEntryIndex. */
  const byIndex: string[] = [];
  for (const { line, value } of lines) {
    const type = str(value.type) ?? '';
    if (type === 'session') {
      byIndex.push('');
      continue;
    }
    const id = str(value.id) ?? `line-${line}`;
    byIndex.push(id);
    const rawParent = 'parentId' in value ? value.parentId : undefined;
    const parentId = rawParent === null ? null : typeof rawParent === 'string' ? (alias.has(rawParent) ? alias.get(rawParent)! : previous) : previous;
    const body = entryBody(value, type, stats, calls);
    if (!body) {
      alias.set(id, parentId);
      if (!PASS_THROUGH.has(type) && type !== 'message') stats.skip(`entry type "${type || 'none'}"`);
      continue;
    }
    entries.push({ id, parentId, line, body });
    alias.set(id, id);
    previous = id;
    activeLeaf = id;
  }
  // v1 compactions name the first kept entry by index; now every id is known.
  for (const entry of entries) if (entry.body.kind === 'compaction' && entry.body.keepFrom?.startsWith('#')) {
    const kept = byIndex[Number(entry.body.keepFrom.slice(1))];
    if (kept) entry.body.keepFrom = kept;
    else delete entry.body.keepFrom;
  }
  const version = header?.version === undefined ? 'session v1' : `session v${String(header.version)}`;
  return { agent: 'pi', version, sourceId: str(header?.id) ?? basename(file).replace(/\.jsonl$/, ''), ...(str(header?.cwd) ? { cwd: str(header?.cwd)! } : {}), entries, ...(activeLeaf ? { activeLeaf } : {}), sidechains: [], stats };
}

function entryBody(value: Record<string, unknown>, type: string, stats: ImportStats, calls: Map<string, string>): EntryBody | undefined {
  if (type === 'compaction') {
    stats.compactions++;
    const keepFrom = str(value.firstKeptEntryId) ?? (typeof value.firstKeptEntryIndex === 'number' ? `#${value.firstKeptEntryIndex}` : undefined);
    return { kind: 'compaction', summary: str(value.summary) ?? '', ...(keepFrom ? { keepFrom } : {}) };
  }
  if (type === 'branch_summary' || type === 'custom_message') {
    const { text, images } = textAndImages(type === 'branch_summary' ? `The following is a summary of a branch that this conversation came back from:\n\n${str(value.summary) ?? ''}` : value.content, stats);
    stats.messages++;
    return { kind: 'user', text, ...(images.length ? { images } : {}) };
  }
  if (type !== 'message') return undefined;
  const message = obj(value.message);
  const role = str(message?.role);
  if (!message || !role) {
    stats.skip('message entry without a role');
    return undefined;
  }
  if (role === 'user' || role === 'custom' || role === 'hookMessage') {
    const { text, images } = textAndImages(message.content, stats);
    if (!text.trim() && !images.length) return stats.skip('empty user message'), undefined;
    stats.messages++;
    return { kind: 'user', text, ...(images.length ? { images } : {}) };
  }
  if (role === 'bashExecution') {
    stats.messages++;
    return { kind: 'user', text: `Ran \`${str(message.command) ?? ''}\`\n\`\`\`\n${str(message.output) ?? ''}\n\`\`\`${typeof message.exitCode === 'number' && message.exitCode !== 0 ? `\nExit code: ${message.exitCode}` : ''}` };
  }
  if (role === 'toolResult') {
    const callId = str(message.toolCallId) ?? '';
    const name = calls.get(callId);
    if (!name) return stats.skip('tool result without its call'), undefined;
    const { text, images } = textAndImages(message.content, stats);
    stats.results++;
    return { kind: 'result', callId, name, content: text, isError: message.isError === true, ...(images.length ? { images } : {}) };
  }
  if (role === 'assistant') return assistant(message, stats, calls);
  stats.skip(`message role "${role}"`);
  return undefined;
}

function assistant(message: Record<string, unknown>, stats: ImportStats, calls: Map<string, string>): EntryBody | undefined {
  const model = str(message.model) ?? '';
  const texts: string[] = [];
  const reasoning: string[] = [];
  const thinking: unknown[] = [];
  const toolCalls: ToolCall[] = [];
  for (const raw of arr(message.content)) {
    const block = obj(raw);
    if (!block) continue;
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block.type === 'thinking' && typeof block.thinking === 'string') {
      reasoning.push(block.thinking);
      if (typeof block.thinkingSignature === 'string' && message.provider === 'anthropic') thinking.push({ type: 'thinking', thinking: block.thinking, signature: block.thinkingSignature });
      stats.reasoning++;
    } else if (block.type === 'toolCall') {
      const call = mapToolCall('pi', { id: str(block.id) ?? `call-${toolCalls.length}`, name: str(block.name) ?? 'unknown', arguments: JSON.stringify(block.arguments ?? {}) }, stats);
      toolCalls.push(call);
      calls.set(call.id, call.name);
    } else stats.skip(`assistant block "${String(block.type)}"`);
  }
  if (!texts.length && !toolCalls.length) {
    stats.skip(`empty assistant reply (${str(message.stopReason) ?? 'no content'})`);
    return undefined;
  }
  stats.messages++;
  const providerData: ProviderData | undefined = thinking.length ? { provider: 'pi', model, thinking } : undefined;
  return { kind: 'assistant', text: texts.join('\n\n'), calls: toolCalls, ...(reasoning.length ? { reasoning: reasoning.join('\n\n') } : {}), ...(providerData ? { providerData } : {}), ...(model ? { model } : {}) };
}
