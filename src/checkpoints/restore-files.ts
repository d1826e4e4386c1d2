import { applyFileOps, type FileIo } from './apply-file-ops.js';
import { checkOps, type LeftAlone, type RestorePlan } from './restore.js';
import type { ShadowGit } from './shadow-git.js';
import { takeSnapshot } from './snapshot.js';

export interface RestoreResult {
  /** Rewritten with the checkpoint's content (changed or deleted since). */
  restored: string[];
  /** Made since the checkpoint by the session, so removed. */
  removed: string[];
  /** Not touched, with why. */
  leftAlone: LeftAlone[];
  /** The workspace's tree as the rewind left it. */
  tree: string;
}

/** Throws, with nothing changed, if an op of the plan no longer holds on disk (a file changed since it was made). */
export async function recheckPlan(git: ShadowGit, plan: RestorePlan): Promise<void> {
  const { unsafe } = await checkOps(git.workTree, plan.ops, { tree: plan.current, tooLarge: [] });
  if (!unsafe.length) return;
  const list = unsafe.map((entry) => `${entry.path} (${entry.reason})`).join(', ');
  throw new Error(`the workspace changed since the rewind was planned: ${list}. Nothing was changed; run the rewind again.`);
}

/**
 * Carries a restore plan out, all or nothing: every op is checked again against the disk first
 * (nothing is touched if one no longer holds), then applied with rollback (applyFileOps). The
 * shadow index is brought to what the files are now, so the next snapshot re-reads only those.
 */
export async function restoreFiles(git: ShadowGit, plan: RestorePlan, io?: FileIo): Promise<RestoreResult> {
  await recheckPlan(git, plan);
  await applyFileOps(git, plan.ops, io);
  const removed = plan.ops.filter((op) => !op.then);
  const written = plan.ops.filter((op) => op.then);
  // The files are rewound now: a failure to record that must not read as a failed rewind.
  const tree = await indexWhatWasDone(git, plan).catch(async () => (await takeSnapshot(git)).tree);
  return { restored: written.map((op) => op.path), removed: removed.map((op) => op.path), leftAlone: plan.leftAlone, tree };
}

/** The snapshot's index with the rewound entries changed (stat data of the rest kept): the tree the rewind left. */
async function indexWhatWasDone(git: ShadowGit, plan: RestorePlan): Promise<string> {
  if ((await git.must(['write-tree'])).trim() !== plan.current) await git.must(['read-tree', plan.current]);
  const zero = '0'.repeat(plan.current.length);
  const entries = plan.ops.map((op) => (op.then ? `${op.then.mode} ${op.then.sha}\t${op.path}` : `0 ${zero}\t${op.path}`));
  // Removals first: a file may come back where a folder's files went.
  entries.sort((a, b) => Number(!a.startsWith('0 ')) - Number(!b.startsWith('0 ')));
  if (entries.length) await git.must(['update-index', '-z', '--index-info'], `${entries.join('\0')}\0`);
  return (await git.must(['write-tree'])).trim();
}
