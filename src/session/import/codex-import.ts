import { basename } from 'node:path';
import type { ToolCall } from '../../contracts/messages.js';
import { textAndImages } from './content-parts.js';
import { mapToolCall } from './foreign-tools.js';
import { ImportStats, type EntryBody, type ImportEntry, type ParsedForeignSession } from './import-model.js';
import { arr, jsonLines, obj, str } from './source-lines.js';

/** The rollout's line types that hold nothing a history needs (display copies, settings, state). */
const NOT_HISTORY: Record<string, string> = {
  event_msg: 'display event (event_msg; the response items hold the same)',
  turn_context: 'turn settings (turn_context)',
  state: 'state record',
};
const RESPONSE_ITEMS = new Set(['message', 'reasoning', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output', 'local_shell_call', 'web_search_call', 'compaction', 'compaction_summary', 'ghost_snapshot', 'tool_search_call', 'tool_search_output']);

/**
 * A Codex rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): `session_meta`, then
 * `response_item`s (the model's context as sent), `event_msg`s (what the UI showed),
 * `turn_context`s and `compacted` records whose `replacement_history` replaces the context.
 * Older rollouts wrote bare items without the `{type, payload}` wrapper; both are read.
 */
export function parseCodex(text: string, file: string): ParsedForeignSession {
  const stats = new ImportStats();
  const { lines, broken, total } = jsonLines(text);
  stats.lines = total;
  if (broken) stats.skip('broken line (not JSON)', broken);
  const builder = new CodexHistory(stats);
  let meta: Record<string, unknown> | undefined;
  for (const { line, value } of lines) {
    const type = str(value.type) ?? str(value.record_type) ?? '';
    const payload = obj(value.payload);
    if (type === 'session_meta') {
      meta ??= payload;
      continue;
    }
    if (type === 'turn_context') builder.model = str(payload?.model) ?? builder.model;
    if (NOT_HISTORY[type]) {
      stats.skip(NOT_HISTORY[type]!);
      continue;
    }
    if (type === 'response_item' && payload) builder.item(payload, line);
    else if (type === 'compacted') builder.compacted(payload ?? value, line);
    else if (RESPONSE_ITEMS.has(type)) builder.item(value, line);
    else if (line === 1 && typeof value.id === 'string' && !type) meta = value;
    else stats.skip(`record type "${type || 'none'}"`);
  }
  builder.finish();
  const version = str(meta?.cli_version);
  const cwd = str(meta?.cwd);
  return { agent: 'codex', ...(version ? { version } : {}), sourceId: str(meta?.id) ?? basename(file).replace(/\.jsonl$/, ''), ...(cwd ? { cwd } : {}), entries: builder.entries, sidechains: [], stats };
}

class CodexHistory {
  readonly entries: ImportEntry[] = [];
  model = '';
  private open: Extract<EntryBody, { kind: 'assistant' }> | undefined;
  private readonly calls = new Map<string, string>();

  constructor(private readonly stats: ImportStats) {}

  item(item: Record<string, unknown>, line: number): void {
    const type = str(item.type);
    if (type === 'message') return this.message(item, line);
    if (type === 'reasoning') return this.reasoning(item, line);
    if (type === 'function_call') return this.call({ id: str(item.call_id) ?? str(item.id) ?? `call-${line}`, name: str(item.name) ?? 'unknown', arguments: str(item.arguments) ?? '{}' }, line);
    if (type === 'custom_tool_call') return this.call({ id: str(item.call_id) ?? `call-${line}`, name: str(item.name) ?? 'unknown', arguments: JSON.stringify({ input: str(item.input) ?? '' }) }, line);
    if (type === 'local_shell_call') return this.call({ id: str(item.call_id) ?? str(item.id) ?? `call-${line}`, name: 'local_shell', arguments: JSON.stringify(obj(item.action) ?? {}) }, line);
    if (type === 'function_call_output' || type === 'custom_tool_call_output') return this.output(item, line);
    if (type === 'compaction' || type === 'compaction_summary') return this.compacted({ message: str(item.summary) ?? '' }, line);
    this.stats.skip(type === 'web_search_call' ? 'server-side web search (its results are not in the rollout)' : `response item "${type}"`);
  }

  compacted(record: Record<string, unknown>, line: number): void {
    this.close();
    const history = arr(record.replacement_history);
    const summary = str(record.message) ?? '';
    this.push({ kind: 'compaction', summary: summary || '(Codex compacted the conversation here; what it kept follows.)' }, line);
    this.stats.compactions++;
    for (const item of history) if (obj(item)) this.item(obj(item)!, line);
    this.close();
  }

  finish(): void {
    this.close();
  }

  private message(item: Record<string, unknown>, line: number): void {
    const role = str(item.role);
    const { text, images } = textAndImages(item.content, this.stats);
    if (role === 'assistant') {
      const open = this.open && this.open.calls.length === 0 ? this.open : this.startAssistant(line);
      open.text = open.text ? `${open.text}\n\n${text}` : text;
      return;
    }
    this.close();
    if (role === 'developer' || role === 'system') return this.stats.skip("developer instructions (Codex's own system prompt)");
    if (!text.trim() && !images.length) return this.stats.skip('empty user message');
    this.push({ kind: 'user', text, ...(images.length ? { images } : {}) }, line);
    this.stats.messages++;
  }

  private reasoning(item: Record<string, unknown>, line: number): void {
    const open = this.open && !this.open.text && !this.open.calls.length && !this.open.reasoning ? this.open : this.startAssistant(line);
    const summary = arr(item.summary).map((part) => str(obj(part)?.text) ?? '').filter(Boolean);
    const content = arr(item.content).map((part) => str(obj(part)?.text) ?? '').filter(Boolean);
    const text = [...summary, ...content].join('\n\n');
    if (text) open.reasoning = text;
    if (typeof item.encrypted_content === 'string') {
      open.providerData = { provider: 'codex', model: this.model, responsesReasoning: [{ type: 'reasoning', ...(str(item.id) ? { id: str(item.id) } : {}), summary: arr(item.summary), encrypted_content: item.encrypted_content }] };
    }
    this.stats.reasoning++;
  }

  private call(call: ToolCall, line: number): void {
    const open = this.open ?? this.startAssistant(line);
    open.calls.push(mapToolCall('codex', call, this.stats));
    this.calls.set(call.id, open.calls.at(-1)!.name);
  }

  private output(item: Record<string, unknown>, line: number): void {
    this.close();
    const callId = str(item.call_id) ?? '';
    const name = this.calls.get(callId);
    if (!name) return this.stats.skip('tool result without its call');
    const raw = item.output;
    const shaped = obj(raw);
    const { text, images } = textAndImages(shaped ? (shaped.content ?? shaped.output ?? JSON.stringify(shaped)) : raw, this.stats);
    const failed = shaped?.success === false || /^(Exit code: [1-9]|error:)/.test(text);
    this.push({ kind: 'result', callId, name, content: text, isError: failed, ...(images.length ? { images } : {}) }, line);
    this.stats.results++;
  }

  private startAssistant(line: number): Extract<EntryBody, { kind: 'assistant' }> {
    this.close();
    const body: Extract<EntryBody, { kind: 'assistant' }> = { kind: 'assistant', text: '', calls: [], ...(this.model ? { model: this.model } : {}) };
    this.push(body, line);
    this.stats.messages++;
    this.open = body;
    return body;
  }

  private close(): void {
    if (this.open && this.open.providerData) this.open.providerData.model = this.model;
    this.open = undefined;
  }

  private push(body: EntryBody, line: number): void {
    const parentId = this.entries.at(-1)?.id ?? null;
    this.entries.push({ id: `${line}:${this.entries.length}`, parentId, line, body });
  }
}
