import { knownWindow } from '../context/model-windows.js';
import type { DoctorEndpoint, ProbeBounds, ProbeResult } from './types.js';
import { getJson, postChat, replyText } from './wire.js';

/** Prompt sizes tried, in tokens (≈ 4 characters each), smallest first; the ladder stops at the first miss. */
export const CONTEXT_LADDER = [1_000, 3_000, 7_000, 15_000, 31_000];
/** Requests spent narrowing a miss down: between the last size kept and the first lost, halving each time. */
export const BISECTION_STEPS = 4;
/** Sizes the bisection tries are rounded to this many tokens. */
const BISECTION_GRAIN = 50;
/** A paid endpoint is not asked past this many tokens: the probe is meant to cost cents. */
export const PAID_CONTEXT_LIMIT = 15_000;
/** The bisection's floor when even the smallest size was lost. */
const MIN_PROBE = 200;

/** The prompt sizes this endpoint will be sent. */
export function contextSizes(endpoint: DoctorEndpoint, claimed: number | undefined): number[] {
  const limit = Math.min(claimed !== undefined ? claimed * 0.9 : Infinity, endpoint.local ? Infinity : PAID_CONTEXT_LIMIT);
  return CONTEXT_LADDER.filter((size) => size <= limit);
}

/** A long prompt with a passphrase in its first line and the question at its end. */
export function needlePrompt(tokens: number): { prompt: string; needle: string } {
  const needle = `AMBER-${tokens}`;
  const lines = [`The passphrase is ${needle}. Remember it.`];
  for (let i = 1; lines.join('\n').length < tokens * 4; i++) lines.push(`Line ${i}: this archive entry records nothing of note.`);
  lines.push('What is the passphrase given in the very first line? Reply with the passphrase only.');
  return { prompt: lines.join('\n'), needle };
}

/** What the server says its window is (/models fields of vLLM, OpenRouter, LM Studio), or undefined. */
export async function claimedWindow(endpoint: DoctorEndpoint, bounds: ProbeBounds): Promise<number | undefined> {
  const models = await getJson(endpoint, '/models', bounds);
  const list = (models?.data as Array<Record<string, unknown>> | undefined) ?? [];
  const entry = list.find((model) => model.id === endpoint.model);
  for (const field of ['context_length', 'max_model_len', 'context_window', 'max_context_length', 'loaded_context_length']) {
    const value = entry?.[field];
    if (typeof value === 'number' && value > 0) return value;
  }
  return undefined;
}

/** The real window: does the reply still know a needle from the start of a long prompt? */
export async function probeContext(endpoint: DoctorEndpoint, bounds: ProbeBounds): Promise<ProbeResult> {
  const label = 'context window';
  const served = await claimedWindow(endpoint, bounds);
  const listed = knownWindow(endpoint.model);
  const claim = served !== undefined ? `the server claims ${served}` : listed !== undefined ? `listed as ${listed}` : 'no claim';
  let kept: number | undefined;
  let lost: number | undefined;
  let timedOut: string | undefined;
  const keeps = async (size: number) => {
    const { prompt, needle } = needlePrompt(size);
    const reply = await postChat(endpoint, { messages: [{ role: 'user', content: prompt }], stream: false }, bounds);
    if (reply.timedOut) timedOut = `${reply.error} at ≈${size} tokens`;
    return reply.status === 200 && replyText(reply).includes(needle);
  };
  for (const size of contextSizes(endpoint, served ?? listed)) {
    if (timedOut) break;
    if (await keeps(size)) {
      kept = size;
      continue;
    }
    lost = size;
    break;
  }
  // The ladder's steps are coarse (3,000 then 7,000): bisect between the last kept size (or the
  // smallest window a run accepts) and the first lost one, so the window recommended is the real one.
  // A server too slow for a prompt of this size would only be slow again while bisecting.
  if (timedOut) return { id: 'context', label, status: kept === undefined ? 'fail' : 'warn', detail: `needle kept at ≈${kept ?? 0} tokens, then ${timedOut}; ${claim}`, data: { claimed: served ?? null, listed: listed ?? null, keptTokens: kept ?? null, lostTokens: null } };
  if (lost !== undefined) {
    let low = kept ?? MIN_PROBE;
    let high = lost;
    for (let step = 0; step < BISECTION_STEPS && high - low > BISECTION_GRAIN * 2; step++) {
      const middle = Math.round((low + high) / 2 / BISECTION_GRAIN) * BISECTION_GRAIN;
      if (await keeps(middle)) {
        low = middle;
        kept = middle;
      } else {
        high = middle;
        lost = middle;
      }
    }
  }
  const data = { claimed: served ?? null, listed: listed ?? null, keptTokens: kept ?? null, lostTokens: lost ?? null };
  if (lost === undefined) return { id: 'context', label, status: 'pass', detail: `needle kept at ≈${kept ?? 0} tokens; ${claim}`, data };
  const detail = `needle kept at ≈${kept ?? 0} tokens, lost at ≈${lost}: the prompt's start is cut (truncated context); ${claim}`;
  return { id: 'context', label, status: kept === undefined ? 'fail' : 'warn', detail, data };
}
