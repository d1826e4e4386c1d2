import type { AgentEvent } from '../contracts/events.js';
import type { ToolCall } from '../contracts/messages.js';
import { readSessionFile } from '../session/read-session.js';
import { countRuns } from '../session/rewind-point.js';
import type { SessionCheckpoints } from './session-checkpoints.js';
import type { Snapshot } from './snapshot.js';
import type { WriteWatch } from './write-watch.js';

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
  /**
   * Where the file tools say which file they are about to write, and whether a call changes files
   * only through them (write_file, edit_file, code_nav's rename). Absent: every call that may change
   * files is taken to change any file, and waits for a snapshot of the whole workspace.
   */
  writes?: { watch: WriteWatch; onlyThrough(call: ToolCall): boolean };
}

/**
 * Passes a run's events through, taking a checkpoint before a turn whose calls may change files,
 * before the consumer asks for the next event (the loop runs no tool until then), and noting what
 * the run left at its stop. The loop knows nothing of this. A failing snapshot warns once and stops
 * checkpointing for the run; it never stops the run.
 *
 * A snapshot of the whole workspace costs what it holds (its first one in a big tree, seconds): it
 * runs in the background, and only a turn with a call that may change any file (a command, a
 * subagent) waits for it; the file tools' writes go ahead, their files' earlier content captured just
 * before each write (SessionCheckpoints). After turns that only wrote through the file tools, a
 * checkpoint is the last one's tree with those files as they are now. A turn whose calls only read records its checkpoint later,
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
  // Whether something other than the file tools may have changed files since the last whole-tree snapshot (true before the first).
  let needWhole = true;
  // Turns whose calls only read, waiting for the next snapshot's tree.
  const pending: Array<{ run: number; turn: number; prompt: string }> = [];
  // Begun while this turn's reply streams; valid until a tool that may change files runs.
  let begun: Promise<Snapshot> | undefined;
  // Checkpoints still being written to the log (their snapshots run in the background).
  const recordings: Array<Promise<unknown>> = [];
  let stopWatching: (() => void) | undefined;
  const mayChangeFiles = target.mayChangeFiles ?? (() => true);
  const changesAny = (call: ToolCall) => mayChangeFiles(call) && !(target.writes?.onlyThrough(call) ?? false);
  const fail = (error: unknown) => {
    if (broken) return;
    broken = true;
    target.warn(`checkpoints are off for this run (${(error as Error).message}); its changes cannot be rewound.`);
  };
  const storeFor = (sessionId: string) =>
    (store ??= import('./session-checkpoints.js').then(({ SessionCheckpoints }) => {
      const checkpoints = new SessionCheckpoints({ workspace: target.workspace, sessionId, ...(target.env ? { env: target.env } : {}) });
      stopWatching = target.writes?.watch.listen((absolute) => checkpoints.beforeWrite(absolute));
      return checkpoints;
    }));
  const guarded = async (action: () => Promise<unknown>) => {
    if (broken) return;
    try {
      await action();
    } catch (error) {
      fail(error);
    }
  };
  /**
   * Records the pending turns (and `point`), the first with a snapshot (the one begun, if any), the
   * rest with its tree; resolves when the tools may run (a call that may change any file waits for
   * the whole-tree snapshot; the log entries follow in the background).
   */
  const record = async (checkpoints: SessionCheckpoints, points: Array<{ run: number; turn: number; prompt: string }>, reuseTree: boolean, waitForWhole: boolean) => {
    let ready: Promise<void> = Promise.resolve();
    for (const [i, point] of points.entries()) {
      const turn = checkpoints.beginTurn(point, i === 0 ? { reuseTree, whole: needWhole, waitForWhole, ...(begun ? { begun } : {}) } : { reuseTree: true, waitForWhole });
      recordings.push(turn.recorded.catch(fail));
      ready = turn.ready;
    }
    await ready;
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
    if (event.type === 'tool_call_delta' && changedSinceSnapshot && needWhole && !begun && !broken && mayChangeFiles({ id: event.id, name: event.name, arguments: '' })) {
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
          const whole = event.message.toolCalls.some(changesAny);
          await guarded(async () => record(await storeFor(session.id), [...pending.splice(0), point], !changedSinceSnapshot, whole));
          begun = undefined;
          if (changing) needWhole = whole;
          changedSinceSnapshot = changing;
        }
      }
    }
    if (event.type === 'stop' && store) {
      const checkpoints = store;
      // Read-only turns after a change: the workspace they saw is the one the run leaves.
      if (pending.length > 0 && !broken && (await checkpoints).hasSnapshot()) {
        await guarded(async () => record(await checkpoints, pending.splice(0), false, false));
        changedSinceSnapshot = false;
      }
      await guarded(async () => (await checkpoints).afterRun({ unchanged: !changedSinceSnapshot, ...(begun ? { begun } : {}) }));
      await Promise.all(recordings.splice(0));
      stopWatching?.();
      // Begun for a turn that ran no tool (an answer, an error): it finishes before the run ends, so
      // no git process outlives the run or meets the next run's snapshot on the shadow index.
      if (begun) await begun.catch(() => undefined);
    }
    yield event;
  }
}
