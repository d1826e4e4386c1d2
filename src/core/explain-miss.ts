import type { Message } from '../contracts/messages.js';
import type { ModelRequest } from '../contracts/provider.js';
import { sharedPrefix } from '../contracts/prefix-memo.js';

/** What changed the prompt's prefix, in the order providers cache it: model, tools, system prompt, messages. */
export type MissKind = 'model' | 'tools' | 'system' | 'compaction' | 'stubbing' | 'message' | 'idle';

export interface MissReason {
  kind: MissKind;
  /** For people: what differs, e.g. "tool list changed: added read_output". */
  why: string;
}

/** What the context policy did before this request (its events), which names a changed message. */
export interface ContextChanges {
  compaction?: boolean;
  stubbing?: boolean;
}

/**
 * Why a request cannot read the previous request's prefix from the provider's cache: the first
 * field or message that differs, or an idle gap longer than the cache lives. Undefined when the
 * request is the previous one plus new messages, sent in time. Provider-neutral: it compares the
 * request as the loop builds it, before any wire format.
 */
export function explainMiss(previous: ModelRequest, next: ModelRequest, idleMs: number, ttlMs: number, changes: ContextChanges = {}): MissReason | undefined {
  if (previous.model !== next.model) return { kind: 'model', why: `model switched from ${previous.model} to ${next.model}` };
  const tools = toolChange(previous, next);
  if (tools) return { kind: 'tools', why: tools };
  const prev = previous.messages;
  const messages = next.messages;
  const end = Math.min(prev.length, messages.length);
  // The messages kept as they were are the same objects: only those past them are compared by value.
  for (let i = sharedPrefix(prev, messages); i < end; i++) {
    if (sameMessage(prev[i]!, messages[i]!)) continue;
    return messageChange(prev[i]!, messages[i]!, i, changes);
  }
  if (messages.length < prev.length) return { kind: 'compaction', why: `history shortened from ${prev.length} to ${messages.length} messages` };
  if (idleMs > ttlMs) return { kind: 'idle', why: `idle ${minutes(idleMs)}, longer than the cache's ${minutes(ttlMs)} lifetime` };
  return undefined;
}

function toolChange(previous: ModelRequest, next: ModelRequest): string | undefined {
  const before = previous.tools ?? [];
  const after = next.tools ?? [];
  if (before.length === after.length && before.every((tool, i) => tool === after[i] || JSON.stringify(tool) === JSON.stringify(after[i]))) return undefined;
  const names = (list: typeof before) => new Set(list.map((tool) => tool.name));
  const [had, has] = [names(before), names(after)];
  const added = [...has].filter((name) => !had.has(name));
  const removed = [...had].filter((name) => !has.has(name));
  const parts = [...(added.length ? [`added ${added.join(', ')}`] : []), ...(removed.length ? [`removed ${removed.join(', ')}`] : [])];
  if (!parts.length) parts.push(...deferredChange(before, after));
  return `tool list changed: ${parts.length ? parts.join('; ') : 'a schema or the order differs'}`;
}

/** The tools listed by tool_search (each `- name: …` line of its description), which deferral keeps out of the offer. */
function deferredNames(tools: ModelRequest['tools']): Set<string> | undefined {
  const search = tools.find((tool) => tool.name === 'tool_search');
  if (!search) return undefined;
  return new Set([...search.description.matchAll(/^- ([A-Za-z0-9_-]+): /gm)].map((match) => match[1]!));
}

/** What changed among the deferred tools, when that is what changed the offer. */
function deferredChange(before: ModelRequest['tools'], after: ModelRequest['tools']): string[] {
  const [had, has] = [deferredNames(before), deferredNames(after)];
  if (!had || !has) return [];
  const added = [...has].filter((name) => !had.has(name));
  const removed = [...had].filter((name) => !has.has(name));
  return [...(added.length ? [`deferred behind tool_search: ${added.join(', ')}`] : []), ...(removed.length ? [`no longer deferred: ${removed.join(', ')}`] : [])];
}

function messageChange(before: Message, after: Message, index: number, changes: ContextChanges): MissReason {
  if (index === 0 && (before.role === 'system' || after.role === 'system')) return { kind: 'system', why: 'system prompt changed' };
  if (changes.stubbing && before.role === 'tool' && after.role === 'tool') return { kind: 'stubbing', why: `older outputs stubbed at a rewrite point, from message ${index}` };
  if (changes.compaction) return { kind: 'compaction', why: `compaction replaced the history from message ${index}` };
  return { kind: 'message', why: `message ${index} (${after.role}) changed` };
}

function sameMessage(a: Message, b: Message): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function minutes(ms: number): string {
  const m = ms / 60_000;
  return m >= 60 && m % 60 === 0 ? `${m / 60}h` : `${Math.round(m * 10) / 10}m`;
}
