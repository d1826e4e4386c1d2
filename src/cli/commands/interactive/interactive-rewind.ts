import { applyRewind, planRewind } from '../../../checkpoints/rewind.js';
import { SessionCheckpoints } from '../../../checkpoints/session-checkpoints.js';
import { readSessionFile } from '../../../session/read-session.js';
import { rebuildHistory } from '../../../session/rebuild-history.js';
import { imagesDirFor, loadImages } from '../../../session/session-images.js';
import { withSystemPrompt } from '../../../session/session-store.js';
import { rewindSummary } from '../rewind/rewind-text.js';
import { sessionRewindPoints } from '../../../checkpoints/rewind-points.js';
import { describePoints, pointName } from '../rewind/rewind-points-text.js';
import { rewindTarget, undoPointNumber } from '../rewind/rewind-target.js';
import type { InteractiveServices, TuiConversation } from '../../tui/services.js';

/**
 * /rewind and /undo in the interactive session, on the session the conversation records into
 * (whose lock this process holds); the core takes the checkpoints around each run.
 */
export function interactiveRewind(options: { workspace: string; system: string; conversation: () => TuiConversation }): Pick<InteractiveServices, 'checkpoints' | 'checkpointNumbers' | 'rewind'> {
  const store = () => {
    const { id, path } = options.conversation().state();
    return path ? { path, store: new SessionCheckpoints({ workspace: options.workspace, sessionId: id }) } : undefined;
  };
  return {
    checkpoints: async () => {
      const open = store();
      return open ? describePoints(open.store, sessionRewindPoints(open.store, open.path)) : [];
    },
    checkpointNumbers: () => {
      const open = store();
      return open ? sessionRewindPoints(open.store, open.path).map((point) => point.n) : [];
    },
    rewind: async (n, { force, confirm }) => {
      const open = store();
      const point = open ? rewindTarget(sessionRewindPoints(open.store, open.path), n, '/rewind N') : 'Nothing to rewind: this session has no prompts yet.';
      if (!open || typeof point === 'string') return { lines: [point as string] };
      const plan = await planRewind(open.store, { ...(point.checkpoint ? { checkpoint: point.checkpoint } : {}), keepRecords: point.keepRecords, files: true, conversation: true, sessionPath: open.path });
      if (plan.userChanged.length && !force && !(await confirm?.(plan.userChanged))) {
        if (confirm) return { lines: ['Nothing was changed: the files you changed are kept.'] };
        return { lines: ['These files changed after the agent left them, and the rewind would overwrite them:', ...plan.userChanged.map((path) => `  ${path}`), `Nothing was changed. To overwrite them: /rewind ${point.n} --force`] };
      }
      const outcome = await applyRewind(open.store, plan);
      if (outcome.conversationRecord) options.conversation().rewind(outcome.conversationRecord.toRecord);
      const records = loadImages(readSessionFile(open.path).records, imagesDirFor(open.path), []);
      const messages = withSystemPrompt(rebuildHistory(records).messages, options.system);
      options.conversation().setHistory(messages);
      return { lines: rewindSummary(plan, outcome, { target: pointName(point), undo: `/rewind ${undoPointNumber(open.store, open.path, outcome.undo)}` }), messages };
    },
  };
}
