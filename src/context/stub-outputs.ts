import type { Message, ToolMessage } from '../contracts/messages.js';
import { capNoteOf, format } from './tool-result-cap.js';
import { outputIdFor } from '../tools/output-store.js';

/**
 * Replaces older tool outputs by one-line stubs once the newer ones use up the budget. A pure
 * function of the history and the budget (token counts come from a deterministic tokenizer), so
 * applying it again, or to a history rebuilt from a session file, gives the same bytes; that keeps
 * prompt caches warm and resumes exact. Messages map one to one: indexes do not move.
 */
export interface StubOptions {
  /** Tokens of tool output kept whole, counted from the newest result back. */
  keepTokens: number;
  /** Token count of one message (the same tokenizer as everywhere else). */
  count: (message: Message) => number;
}

export interface StubResult {
  messages: Message[];
  /** Outputs the stubs point at that were not stored yet (uncapped ones). */
  stored: Array<{ id: string; text: string }>;
  stubbed: number;
}

const STUB = /^\[output of [A-Za-z0-9_-]+ elided: [\d,]+ chars; read_output id out_[0-9a-f]{12}\]$/;
/** Shorter outputs cost about what their stub would: leave them. */
export const MIN_STUB_CHARS = 240;

export function isStub(text: string): boolean {
  return STUB.test(text);
}

export function stubOldOutputs(messages: readonly Message[], options: StubOptions): StubResult {
  const out = [...messages];
  const stored: StubResult['stored'] = [];
  let kept = 0;
  let budgetSpent = false;
  let newest = true;
  let stubbed = 0;
  for (let i = out.length - 1; i >= 0; i--) {
    const message = out[i]!;
    if (message.role !== 'tool' || isStub(message.content) || message.content.length < MIN_STUB_CHARS) continue;
    // The newest result is always seen whole: the model is about to act on it.
    const tokens = budgetSpent ? 0 : options.count(message);
    if (newest || (!budgetSpent && kept + tokens <= options.keepTokens)) {
      kept += tokens;
      newest = false;
      continue;
    }
    budgetSpent = true;
    const { stub, store } = stubFor(message);
    if (store) stored.push(store);
    out[i] = stub;
    stubbed++;
  }
  return { messages: out, stored, stubbed };
}

/** The same stub object for the same output each round: counts and bounds cached per message stay valid. */
const stubs = new WeakMap<ToolMessage, { stub: ToolMessage; store?: { id: string; text: string } }>();

function stubFor(message: ToolMessage): { stub: ToolMessage; store?: { id: string; text: string } } {
  let made = stubs.get(message);
  if (!made) {
    made = makeStub(message);
    stubs.set(message, made);
  }
  return made;
}

function makeStub(message: ToolMessage): { stub: ToolMessage; store?: { id: string; text: string } } {
  const note = capNoteOf(message.content);
  const id = note?.id ?? outputIdFor(message.content);
  const chars = note?.chars ?? message.content.length;
  const stub: ToolMessage = { ...message, content: `[output of ${message.name} elided: ${format(chars)} chars; read_output id ${id}]` };
  return note ? { stub } : { stub, store: { id, text: message.content } };
}
