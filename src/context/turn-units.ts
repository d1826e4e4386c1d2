import type { Message } from '../contracts/messages.js';

/**
 * The places a history may be cut. A unit is a user message, a system message, or an
 * assistant message together with the tool results that answer it: cutting inside one would
 * leave a result without its call (which every provider rejects) or a call without its result.
 */
export interface TurnUnit {
  /** Index of the first message of the unit. */
  start: number;
  /** Index after the last message. */
  end: number;
}

export function turnUnits(messages: readonly Message[], from = 0): TurnUnit[] {
  const units: TurnUnit[] = [];
  for (let i = from; i < messages.length; i++) {
    const message = messages[i]!;
    const last = units[units.length - 1];
    // A stray tool result (its call already gone) travels with whatever precedes it.
    if (message.role === 'tool' && last) last.end = i + 1;
    else units.push({ start: i, end: i + 1 });
  }
  return units;
}

export const SUMMARY_MARKER = '[Summary of the earlier conversation';
export const DROPPED_MARKER = '[Context note:';

/** Summaries and drop notices are user messages we wrote, not the user's requests. */
export function isContextNote(message: Message): boolean {
  return message.role === 'user' && (message.content.startsWith(SUMMARY_MARKER) || message.content.startsWith(DROPPED_MARKER));
}

/** Index of the user's latest real request, or -1. */
export function latestUserRequest(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'user' && !isContextNote(message)) return i;
  }
  return -1;
}
