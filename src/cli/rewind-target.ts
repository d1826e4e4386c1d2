import { defaultRewindPoint, sessionRewindPoints, type RewindPoint } from '../checkpoints/rewind-points.js';
import type { Checkpoint } from '../checkpoints/checkpoint-log.js';
import type { SessionCheckpoints } from '../checkpoints/session-checkpoints.js';

/**
 * The point a rewind goes to: number `to`, or before the last prompt still in the conversation.
 * A string says why there is none (`how` names the way to pick one: "--to N", "/rewind N").
 */
export function rewindTarget(points: readonly RewindPoint[], to: number | undefined, how: string): RewindPoint | string {
  if (!points.length) return 'Nothing to rewind: this session has no prompts yet.';
  if (to === undefined) return defaultRewindPoint(points) ?? `No prompt is left in the conversation to go back before; pick a point with ${how} (1 to ${points.length}).`;
  return points.find((point) => point.n === to) ?? `This session has rewind points 1 to ${points.length}; there is no ${to}.`;
}

/** The number of the point that undoes a rewind just made (its checkpoint `undo`). */
export function undoPointNumber(store: SessionCheckpoints, sessionPath: string, undo: Checkpoint): number {
  return sessionRewindPoints(store, sessionPath).find((point) => point.kind === 'rewind' && point.checkpoint?.n === undo.n)?.n ?? undo.n;
}
