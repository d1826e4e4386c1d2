import type { ToolCall } from '../contracts/messages.js';
import { applyRewind, planRewind } from '../checkpoints/rewind.js';
import { SessionCheckpoints } from '../checkpoints/session-checkpoints.js';
import { withCheckpoints } from '../checkpoints/with-checkpoints.js';
import { readSessionFile } from '../session/read-session.js';
import { rebuildHistory } from '../session/rebuild-history.js';
import { imagesDirFor, loadImages } from '../session/session-images.js';
import { withSystemPrompt } from '../session/session-store.js';
import { rewindSummary } from './rewind-text.js';
import { sessionRewindPoints } from '../checkpoints/rewind-points.js';
import { describePoints, pointName } from './rewind-points-text.js';
import { rewindTarget, undoPointNumber } from './rewind-target.js';
import type { RunSession } from './run-session.js';
import type { InteractiveServices } from './tui/services.js';

/**
 * Checkpoints in the interactive session: each run's events go through withCheckpoints, and
 * /rewind and /undo work on the session being recorded (whose lock this process holds).
 */
export function interactiveRewind(options: { workspace: string; system: string; session: () => RunSession | undefined; warn: (text: string) => void; mayChangeFiles?: (call: ToolCall) => boolean }): Pick<InteractiveServices, 'wrapRun' | 'checkpoints' | 'checkpointNumbers' | 'rewind'> {
  const store = () => {
    const session = options.session();
    return session ? { session, store: new SessionCheckpoints({ workspace: options.workspace, sessionId: session.id }) } : undefined;
  };
  return {
    wrapRun: (events) => withCheckpoints(events, { workspace: options.workspace, session: options.session, warn: options.warn, ...(options.mayChangeFiles ? { mayChangeFiles: options.mayChangeFiles } : {}) }),
    checkpoints: async () => {
      const open = store();
      return open ? describePoints(open.store, sessionRewindPoints(open.store, open.session.path)) : [];
    },
    checkpointNumbers: () => {
      const open = store();
      return open ? sessionRewindPoints(open.store, open.session.path).map((point) => point.n) : [];
    },
    rewind: async (n, { force, confirm }) => {
      const open = store();
      const point = open ? rewindTarget(sessionRewindPoints(open.store, open.session.path), n, '/rewind N') : 'Nothing to rewind: this session has no prompts yet.';
      if (!open || typeof point === 'string') return { lines: [point as string] };
      const plan = await planRewind(open.store, { ...(point.checkpoint ? { checkpoint: point.checkpoint } : {}), keepRecords: point.keepRecords, files: true, conversation: true, sessionPath: open.session.path });
      if (plan.userChanged.length && !force && !(await confirm?.(plan.userChanged))) {
        if (confirm) return { lines: ['Nothing was changed: the files you changed are kept.'] };
        return { lines: ['These files changed after the agent left them, and the rewind would overwrite them:', ...plan.userChanged.map((path) => `  ${path}`), `Nothing was changed. To overwrite them: /rewind ${point.n} --force`] };
      }
      const outcome = await applyRewind(open.store, plan);
      if (outcome.conversationRecord) open.session.rewind(outcome.conversationRecord.toRecord);
      const records = loadImages(readSessionFile(open.session.path).records, imagesDirFor(open.session.path), []);
      const messages = withSystemPrompt(rebuildHistory(records).messages, options.system);
      return { lines: rewindSummary(plan, outcome, { target: pointName(point), undo: `/rewind ${undoPointNumber(open.store, open.session.path, outcome.undo)}` }), messages };
    },
  };
}
