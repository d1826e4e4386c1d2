import type { AgentEvent } from '../contracts/events.js';
import type { ToolCall } from '../contracts/messages.js';
import { readSessionFile } from '../session/read-session.js';
import { countRuns } from '../session/rewind-point.js';
import type { SessionCheckpoints } from './session-checkpoints.js';
import type { Snapshot } from './snapshot.js';

export interface CheckpointTarget {
  workspace: string;
  /** The session being recorded, when there is one yet (a TUI opens it at the first event). */
  session(): { id: string; path: string } | undefined;
  warn(text: string): void;
  env?: NodeJS.ProcessEnv;
  /**
   * Whether a call may change files (an edit or a command; unknown tools count as yes). A turn
   * whose calls cannot, after turns that did not either, reuses the last snapshot's tree instead of
   * taking a new one. Absent: every call may.
   */
  mayChangeFiles?: (call: ToolCall) => boolean;
}

/**
 * Passes a run's events through, taking a checkpoint before a turn whose calls may change files,
 * before the consumer asks for the next event (the loop runs no tool until then), and noting what
 * the run left at its stop. The loop knows nothing of this. A failing snapshot warns once and stops
 * checkpointing for the run; it never stops the run.
 *
 * A snapshot costs what the workspace holds (its first one in a big tree, seconds), so only a turn
 * that may change files waits for one. A turn whose calls only read records its checkpoint later,
 * with the next snapshot's tree: nothing but reads ran in between, so that tree is the workspace as
 * it was before the turn. A run that changes nothing takes no snapshot and records no checkpoint
 * (its prompt's rewind point uses the next one taken, as for a run that ran no tools).
 * The snapshot begins when the reply starts to stream a call that may change files (the request is
 * out, and no tool runs before the reply is whole), so the reply waits only for what git has not
 * finished by then: a checkpoint is the workspace as it was while the model was answering.
 */
export async function* withCheckpoints<Result>(events: AsyncGenerator<AgentEvent, Result>, target: CheckpointTarget): AsyncGenerator<AgentEvent, Result> {
  let input = '';
  let run: number | undefined;
  // Loaded (with git's process spawning) at the first snapshot, which begins after the request is out.
  let store: Promise<SessionCheckpoints> | undefined;
  let broken = false;
  // Whether a file may have changed since this run's last snapshot (true before its first).
  let changedSinceSnapshot = true;
  // Turns whose calls only read, waiting for the next snapshot's tree.
  const pending: Array<{ run: number; turn: number; prompt: string }> = [];
  // Begun while this turn's reply streams; valid until a tool that may change files runs.
  let begun: Promise<Snapshot> | undefined;
  const mayChangeFiles = target.mayChangeFiles ?? (() => true);
  const storeFor = (sessionId: string) =>
    (store ??= import('./session-checkpoints.js').then(({ SessionCheckpoints }) => new SessionCheckpoints({ workspace: target.workspace, sessionId, ...(target.env ? { env: target.env } : {}) })));
  const guarded = async (action: () => Promise<unknown>) => {
    if (broken) return;
    try {
      await action();
    } catch (error) {
      broken = true;
      target.warn(`checkpoints are off for this run (${(error as Error).message}); its changes cannot be rewound.`);
    }
  };
  /** Records the pending turns (and `point`), the first with a snapshot (the one begun, if any), the rest with its tree. */
  const record = async (checkpoints: SessionCheckpoints, points: Array<{ run: number; turn: number; prompt: string }>, reuseTree: boolean) => {
    for (const [i, point] of points.entries()) {
      await checkpoints.beforeTurn(point, i === 0 ? { reuseTree, ...(begun ? { begun } : {}) } : { reuseTree: true });
    }
  };
  for (;;) {
    const next = await events.next();
    if (next.done) return next.value;
    const event = next.value;
    // A subagent's changes happen inside its parent's task call, after the checkpoint of that
    // turn: its own events (with their own turn numbers and prompt) take none.
    if (event.agent !== undefined) {
      yield event;
      continue;
    }
    if (event.type === 'run_start') input = event.input;
    // Once a call that may change files begins to stream: the request is out (spawning git before
    // would delay it) and no tool runs before the reply is whole.
    if (event.type === 'tool_call_delta' && changedSinceSnapshot && !begun && !broken && mayChangeFiles({ id: event.id, name: event.name, arguments: '' })) {
      const session = target.session();
      if (session) {
        begun = storeFor(session.id).then((checkpoints) => checkpoints.snapshot());
        // Awaited by the turn that uses it; a run that ends first must not see it reject unhandled.
        begun.catch(() => undefined);
      }
    }
    if (event.type === 'assistant_message' && event.message.toolCalls.length > 0) {
      const session = target.session();
      if (session && !broken) {
        // Counted before any tool runs: this run's run_start is the last one in the file (a subagent's would follow).
        run ??= countRuns(readSessionFile(session.path).records);
        const point = { run, turn: event.turn, prompt: input };
        const changing = event.message.toolCalls.some(mayChangeFiles);
        if (!changing && changedSinceSnapshot) {
          pending.push(point);
        } else {
          await guarded(async () => record(await storeFor(session.id), [...pending.splice(0), point], !changedSinceSnapshot));
          begun = undefined;
          changedSinceSnapshot = changing;
        }
      }
    }
    if (event.type === 'stop' && store) {
      const checkpoints = store;
      // Read-only turns after a change: the workspace they saw is the one the run leaves.
      if (pending.length > 0 && !broken && (await checkpoints).hasSnapshot()) {
        await guarded(async () => record(await checkpoints, pending.splice(0), false));
        changedSinceSnapshot = false;
      }
      await guarded(async () => (await checkpoints).afterRun({ unchanged: !changedSinceSnapshot, ...(begun ? { begun } : {}) }));
      // Begun for a turn that ran no tool (an answer, an error): it finishes before the run ends, so
      // no git process outlives the run or meets the next run's snapshot on the shadow index.
      if (begun) await begun.catch(() => undefined);
    }
    yield event;
  }
}
