import { readSessionFile } from '../session/read-session.js';
import { rewindPoint } from '../session/rewind-point.js';
import type { FileIo } from './apply-file-ops.js';
import type { Checkpoint } from './checkpoint-log.js';
import { overlayTree } from './overlay-tree.js';
import { changedPaths, planRestore, type LeftAlone, type RestorePlan } from './restore.js';
import { recheckPlan, restoreFiles, type RestoreResult } from './restore-files.js';
import type { SessionCheckpoints } from './session-checkpoints.js';
import type { Snapshot } from './snapshot.js';

export interface RewindRequest {
  /** What the files go back to; absent: no file changed since the point, so only the conversation goes back. */
  checkpoint?: Checkpoint;
  /** The session records the conversation keeps, when the caller knows (a rewind point); else worked out from the checkpoint. */
  keepRecords?: number | undefined;
  files: boolean;
  conversation: boolean;
  /** The session file (for the conversation's cut point). */
  sessionPath: string;
}

export interface RewindPlan extends RewindRequest {
  current: Snapshot;
  /** What the files' rewind does (when `files`). */
  restore?: RestorePlan;
  /** Files the rewind would rewrite or remove. */
  toChange: string[];
  /** Of those, the ones changed since the agent (or a rewind) last left them: the user's own work. */
  userChanged: string[];
  /** Files the rewind will not touch, with why. */
  leftAlone: LeftAlone[];
  /** Records of the session file the conversation keeps (undefined: the session has no such turn). */
  keepRecords: number | undefined;
  recordsNow: number;
}

/** Works out what a rewind would do, without doing it. */
export async function planRewind(store: SessionCheckpoints, request: RewindRequest): Promise<RewindPlan> {
  const current = await store.snapshot();
  const checkpoint = request.checkpoint && (await withTree(store, request.checkpoint, current));
  const restore = request.files && checkpoint ? await planRestore(store.git, store.log, checkpoint, current) : undefined;
  const toChange = restore?.ops.map((op) => op.path) ?? [];
  const left = store.log.read().left;
  const sinceLeft = left && toChange.length ? new Set(await changedPaths(store.git, left, current.tree)) : new Set<string>();
  const records = readSessionFile(request.sessionPath).records;
  const keepRecords =
    'keepRecords' in request ? request.keepRecords : checkpoint?.kind === 'rewind' ? checkpoint.toRecord : checkpoint && rewindPoint(records, checkpoint.run ?? 0, checkpoint.turn ?? 0);
  return {
    ...request,
    current,
    ...(restore ? { restore } : {}),
    toChange,
    userChanged: toChange.filter((path) => sinceLeft.has(path)),
    leftAlone: restore?.leftAlone ?? [],
    keepRecords,
    recordsNow: records.length,
  };
}

/**
 * A checkpoint whose snapshot never reached the log (the process was killed while it ran): the
 * workspace now with each file the file tools wrote since as it was before (its pre-images). Nothing
 * but those tools changed files meanwhile (a command waits until the checkpoint is complete), so
 * that is the workspace as it was, less what the user changed since, which a rewind leaves be.
 */
async function withTree(store: SessionCheckpoints, checkpoint: Checkpoint, current: Snapshot): Promise<Checkpoint> {
  if (checkpoint.tree) return checkpoint;
  const rebuilt = await overlayTree(store.git, current, new Map(Object.entries(checkpoint.preImages ?? {})));
  return { ...checkpoint, tree: rebuilt.tree, tooLarge: rebuilt.tooLarge };
}

export interface RewindOutcome {
  files?: RestoreResult;
  /** The checkpoint that undoes this rewind. */
  undo: Checkpoint;
  /** The session record to append for the conversation (the caller holds the session's lock). */
  conversationRecord?: { type: 'rewind'; toRecord: number };
}

/**
 * Carries a plan out. First a checkpoint of the state now (files and conversation), so the rewind
 * can itself be rewound; then the files, all or nothing (a failure throws with every file as it
 * was); the conversation's record is returned for the caller to append to the session file.
 */
export async function applyRewind(store: SessionCheckpoints, plan: RewindPlan, io?: FileIo): Promise<RewindOutcome> {
  if (plan.restore) await recheckPlan(store.git, plan.restore);
  const undo = store.log.add({ kind: 'rewind', tree: plan.current.tree, tooLarge: plan.current.tooLarge, toRecord: plan.recordsNow });
  let files: RestoreResult | undefined;
  if (plan.restore) {
    files = await restoreFiles(store.git, plan.restore, io);
    store.log.markLeft(files.tree, files.restored);
  }
  const conversationRecord = plan.conversation && plan.keepRecords !== undefined ? ({ type: 'rewind', toRecord: plan.keepRecords } as const) : undefined;
  return { undo, ...(files ? { files } : {}), ...(conversationRecord ? { conversationRecord } : {}) };
}
