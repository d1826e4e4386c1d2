import type { AgentEvent } from '../../../contracts/events.js';

/**
 * The stop event as a headless run prints it (`--json`): the loop's stop, plus what the CLI adds
 * when the run exits 4 (approval needed). These are CLI facts, so they live here, not in the
 * loop's event type.
 */
export type HeadlessStop = Extract<AgentEvent, { type: 'stop' }> & {
  /** Calls refused because they needed approval and nobody could be asked, each with an allow rule that would let it run. */
  approvalNeeded?: Array<{ tool: string; summary: string; allow: string }>;
  /** Calls the auto mode refused before it handed the run back, with why. */
  autoRefused?: Array<{ tool: string; summary: string; reason: string }>;
};
