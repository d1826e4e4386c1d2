import type { SessionState } from '../contracts/session-state.js';
import type { AskTrust } from '../trust/trust-question.js';
import type { BackgroundEntry } from './background-registry.js';
import type { AskHunk } from './land-choice.js';
import type { LandCheckSource, UnapprovedChecks } from './land-checks.js';

export interface LandRequest {
  /** The background session, as the registry holds it (`readBackgroundEntries`). */
  entry: BackgroundEntry;
  /** What it is doing now, as its host shows it: a session working or waiting for an answer is refused. */
  state: SessionState;
  /** Which checks run: given, none, or the configuration's. */
  checks: LandCheckSource;
  /** Land only these files, whole. */
  only?: readonly string[];
  /** Land all of the change, asking nothing. */
  whole?: boolean;
  /** Push the branch and open a pull request instead of merging into the checkout. */
  pr?: boolean;
  env: NodeJS.ProcessEnv;
  /** Asks whether the project's own checks may run (once per workspace and list); without it, unapproved ones refuse the land. */
  askTrust?: AskTrust;
  /** Asks about each hunk; without it (and without `whole` or `only`) a change to land refuses it. */
  askHunk?: AskHunk;
  /** Progress, in order, each with its line for a person. */
  onNote?: (note: LandNote) => void;
  /** Aborted at a question (Ctrl-C): the land stops there and applies nothing. */
  signal?: AbortSignal;
}

export type LandNote =
  | { type: 'warning'; text: string }
  | { type: 'committed'; text: string }
  | { type: 'rebased'; onto: string; text: string }
  | { type: 'checks'; commands: string[]; from: string; text: string }
  | { type: 'check_start'; command: string; text: string }
  | { type: 'check_output'; stream: 'stdout' | 'stderr'; chunk: Buffer }
  | { type: 'check_passed'; command: string; text: string }
  | { type: 'pushed'; text: string };

export interface LandedFile {
  path: string;
  action: 'wrote' | 'removed';
  /** Merged three ways with the user's uncommitted edits of it. */
  merged: boolean;
}

/** How a land ended; `text` (or `reason`) is what a person is told. Only `landed` and `pushed` changed anything. */
export type LandResult =
  | { outcome: 'landed'; files: LandedFile[]; partial: boolean; branch: string; tip: string; rewindSession: string; text: string }
  | { outcome: 'nothing'; text: string }
  | { outcome: 'pushed'; remote: string; url?: string; text: string }
  /** `unapprovedChecks`: the project's checks, never approved for this workspace and no `askTrust` to ask (the front end says how to approve them). */
  | { outcome: 'refused'; reason: string; unapprovedChecks?: UnapprovedChecks }
  | { outcome: 'check_failed'; check: string; exitCode: number | null; signal: string | null; output: string; reason: string }
  | { outcome: 'interrupted'; where: string };
