import { basename } from 'node:path';
import type { ProviderData, ToolCall } from '../../contracts/messages.js';
import { textAndImages } from './content-parts.js';
import { mapToolCall } from './foreign-tools.js';
import { ImportStats, type ImportEntry, type ImportedSidechain, type ParsedForeignSession } from './import-model.js';
import { arr, jsonLines, obj, str, type SourceLine } from './source-lines.js';

/** Records that carry no message: they are links in the uuid chain (their children hang on their parent) and nothing else. */
const PASS_THROUGH = new Set(['system', 'attachment', 'progress', 'file-history-snapshot', 'summary', 'custom-title', 'ai-title', 'last-prompt', 'queue-operation', 'tag', 'agent-name', 'pr-link', 'mode', 'worktree-state', 'permission-mode']);

/**
 * A Claude Code transcript (`~/.claude/projects/<dir>/<session>.jsonl`) as a tree of messages.
 * Each API reply is written as one record per content block sharing `message.id` (and sometimes
 * again, streamed): those become one assistant message. Tool results hang on the block that
 * called them, so they are folded into their call's message; a record whose parent was never
 * written (progress records are not kept) follows the record before it. `isSidechain` records
 * (older versions' subagents) go to a sidechain; `isCompactSummary` messages are compactions.
 */
export function parseClaudeCode(text: string, file: string, subagents: Array<{ file: string; text: string }> = []): ParsedForeignSession {
  const stats = new ImportStats();
  const { lines, broken, total } = jsonLines(text);
  stats.lines = total;
  if (broken) stats.skip('broken line (not JSON)', broken);
  const main = lines.filter((line) => line.value.isSidechain !== true);
  const side = lines.filter((line) => line.value.isSidechain === true);
  // A subagent's own file (all sidechain) imported by itself is its conversation.
  const alone = main.every((line) => line.value.type !== 'user' && line.value.type !== 'assistant');
  const tree = buildTree(alone ? side : main, stats);
  const sidechains: ImportedSidechain[] = [];
  if (side.length && !alone) sidechains.push({ name: 'sidechain', file, entries: buildTree(side, new ImportStats()).entries });
  for (const agent of subagents) {
    const parsed = jsonLines(agent.text);
    sidechains.push({ name: basename(agent.file).replace(/\.jsonl$/, ''), file: agent.file, entries: buildTree(parsed.lines, new ImportStats()).entries });
  }
  stats.sidechains = sidechains.length;
  const first = lines.find((line) => typeof line.value.sessionId === 'string')?.value;
  const version = [...lines].reverse().find((line) => typeof line.value.version === 'string' && line.value.version !== 'unknown')?.value.version as string | undefined;
  return {
    agent: 'claude-code',
    ...(version ? { version } : {}),
    sourceId: str(first?.sessionId) ?? basename(file).replace(/\.jsonl$/, ''),
    ...(str(first?.cwd) ? { cwd: str(first?.cwd)! } : {}),
    entries: tree.entries,
    ...(tree.activeLeaf ? { activeLeaf: tree.activeLeaf } : {}),
    sidechains,
    stats,
  };
}

function buildTree(lines: SourceLine[], stats: ImportStats): { entries: ImportEntry[]; activeLeaf?: string } {
  const entries: ImportEntry[] = [];
  /** Record uuid → the entry it belongs to (null: the root). */
  const alias = new Map<string, string | null>();
  const byMessageId = new Map<string, ImportEntry>();
  const callOwner = new Map<string, string>();
  const seenBlocks = new Map<string, Set<string>>();
  let previous: string | null = null;
  let activeLeaf: string | undefined;
  const parentOf = (record: Record<string, unknown>): string | null => {
    const parent = str(record.parentUuid) ?? (record.type === 'system' && record.subtype === 'compact_boundary' ? str(record.logicalParentUuid) : undefined);
    // A root after the first message is a file without links (hand-written, or very old): it follows the record before.
    if (parent === undefined) return record.parentUuid === null && record.subtype !== 'compact_boundary' && entries.length === 0 ? null : previous;
    return alias.has(parent) ? alias.get(parent)! : previous;
  };
  for (const { line, value: record } of lines) {
    const uuid = str(record.uuid);
    const type = str(record.type) ?? '';
    const message = obj(record.message);
    if (type === 'assistant' && message) {
      if (message.model === '<synthetic>' || record.isApiErrorMessage === true) {
        stats.skip('synthetic API-error reply');
        if (uuid) alias.set(uuid, parentOf(record));
        continue;
      }
      const messageId = str(message.id) ?? uuid ?? `line-${line}`;
      let entry = byMessageId.get(messageId);
      if (!entry) {
        entry = { id: uuid ?? messageId, parentId: parentOf(record), line, body: { kind: 'assistant', text: '', calls: [], ...(str(message.model) ? { model: str(message.model)! } : {}) } };
        byMessageId.set(messageId, entry);
        entries.push(entry);
        stats.messages++;
      } else stats.skip('another record of the same reply (its blocks merged into one message)');
      addAssistantBlocks(entry, message, seenBlocks, callOwner, stats);
      if (uuid) alias.set(uuid, entry.id);
      previous = entry.id;
      activeLeaf = entry.id;
      continue;
    }
    if (type === 'user' && message) {
      const parent = parentOf(record);
      const content = message.content;
      const blocks = Array.isArray(content) ? content : [];
      const results = blocks.filter((block) => obj(block)?.type === 'tool_result');
      for (const block of results) {
        const result = obj(block)!;
        const callId = str(result.tool_use_id) ?? '';
        const owner = callOwner.get(callId);
        if (!owner) {
          stats.skip('tool result without its call');
          continue;
        }
        const { text, images } = textAndImages(result.content, stats);
        entries.push({ id: `${uuid ?? line}#${callId}`, parentId: owner, line, body: { kind: 'result', callId, name: '', content: text, isError: result.is_error === true, ...(images.length ? { images } : {}) } });
        stats.results++;
        if (uuid) alias.set(uuid, owner);
      }
      const rest = typeof content === 'string' ? content : blocks.filter((block) => obj(block)?.type !== 'tool_result');
      const { text, images } = textAndImages(rest, stats);
      if (text.trim() === '' && images.length === 0) {
        if (!results.length) stats.skip('empty user message');
        if (uuid && !alias.has(uuid)) alias.set(uuid, parent);
        continue;
      }
      const id = uuid ?? `line-${line}`;
      const owner = results.length ? alias.get(uuid ?? '') ?? parent : parent;
      entries.push({ id, parentId: owner, line, body: record.isCompactSummary === true ? { kind: 'compaction', summary: text } : { kind: 'user', text, ...(images.length ? { images } : {}) } });
      if (record.isCompactSummary === true) stats.compactions++;
      else stats.messages++;
      alias.set(id, id);
      previous = id;
      activeLeaf = id;
      continue;
    }
    if (uuid) alias.set(uuid, parentOf(record));
    if (uuid && type === 'system' && record.subtype === 'compact_boundary') previous = alias.get(uuid) ?? null;
    if (!PASS_THROUGH.has(type)) stats.skip(`record type "${type || 'none'}"`);
  }
  const names = new Map<string, string>();
  for (const entry of entries) if (entry.body.kind === 'assistant') for (const call of entry.body.calls) names.set(call.id, call.name);
  for (const entry of entries) if (entry.body.kind === 'result') entry.body.name = names.get(entry.body.callId) ?? 'unknown';
  return { entries, ...(activeLeaf ? { activeLeaf } : {}) };
}

function addAssistantBlocks(entry: ImportEntry, message: Record<string, unknown>, seen: Map<string, Set<string>>, callOwner: Map<string, string>, stats: ImportStats): void {
  const body = entry.body as Extract<ImportEntry['body'], { kind: 'assistant' }>;
  const done = seen.get(entry.id) ?? new Set<string>();
  seen.set(entry.id, done);
  const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : arr(message.content);
  for (const raw of content) {
    const block = obj(raw);
    if (!block) continue;
    const key = JSON.stringify(block);
    if (done.has(key)) continue;
    done.add(key);
    if (block.type === 'text' && typeof block.text === 'string') body.text = body.text ? `${body.text}\n\n${block.text}` : block.text;
    else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      const call: ToolCall = { id: str(block.id) ?? `call-${entry.id}-${body.calls.length}`, name: str(block.name) ?? 'unknown', arguments: JSON.stringify(block.input ?? {}) };
      body.calls.push(mapToolCall('claude-code', call, stats));
      callOwner.set(call.id, entry.id);
    } else if (block.type === 'thinking' || block.type === 'redacted_thinking') {
      if (typeof block.thinking === 'string') body.reasoning = body.reasoning ? `${body.reasoning}\n\n${block.thinking}` : block.thinking;
      if (typeof block.signature === 'string' || typeof block.data === 'string') {
        const data = (body.providerData ?? { provider: 'claude-code', model: body.model ?? '', thinking: [] }) as ProviderData & { thinking: unknown[] };
        data.thinking.push(block.type === 'thinking' ? { type: 'thinking', thinking: block.thinking, signature: block.signature } : { type: 'redacted_thinking', data: block.data });
        body.providerData = data;
      }
      stats.reasoning++;
    } else stats.skip(`assistant block "${String(block.type)}"`);
  }
}
