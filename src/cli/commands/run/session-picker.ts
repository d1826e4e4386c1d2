import { createInterface } from 'node:readline/promises';
import { isConversation, listSessions } from '../../../session/list-sessions.js';
import { EXIT } from '../../settings/exit-codes.js';
import { formatSessionTable } from '../sessions/format-sessions.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';

export interface PickerIO {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Ask only when a person is at the terminal; otherwise list and exit 2. */
  interactive: boolean;
  /** Ask for the next message when none was given (default true; the interactive session asks itself). */
  askPrompt?: boolean;
  /** Ctrl-C: stop asking (exit 130). */
  signal?: AbortSignal;
}

export type Picked = { id: string; prompt?: string } | { exitCode: number };

/**
 * `--resume` without an id: in a terminal, list the sessions and ask which one (and the next
 * prompt when none was given); otherwise print the list with a hint and exit 2.
 */
export async function pickSession(workspace: string, prompt: string | undefined, io: PickerIO, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<Picked> {
  const sessions = listSessions(workspace, env).filter(isConversation);
  if (sessions.length === 0) {
    io.output.write(`vibe-agent: no saved sessions in ${workspace}.\n`);
    return { exitCode: EXIT.usage };
  }
  const table = formatSessionTable(sessions)
    .split('\n')
    .map((line, i) => `${i === 0 ? '   ' : String(i).padStart(2)} ${line}`)
    .join('\n');
  io.output.write(`${table}\n`);
  if (!io.interactive) {
    io.output.write(`vibe-agent: --resume needs an id here. Resume one with: vibe-agent --resume ${sessions[0]!.id} "your next message"\n`);
    return { exitCode: EXIT.usage };
  }
  const rl = createInterface({ input: io.input, output: io.output, terminal: false });
  // rl.question never settles once the input has ended, so end of input and Ctrl-C each end the pick.
  const closed = new Promise<undefined>((resolve) => rl.once('close', () => resolve(undefined)));
  const ask = async (question: string): Promise<string | undefined> => {
    if (io.signal?.aborted) return undefined;
    try {
      return await Promise.race([rl.question(question, io.signal ? { signal: io.signal } : {}), closed]);
    } catch (error) {
      if ((error as Error).name === 'AbortError') return undefined;
      throw error;
    }
  };
  const gone = (): Picked => {
    io.output.write('\n');
    return { exitCode: io.signal?.aborted ? EXIT.aborted : EXIT.usage };
  };
  try {
    const raw = await ask(`Resume which session? [1-${sessions.length}, default 1] `);
    if (raw === undefined) return gone();
    const answer = raw.trim();
    const index = answer === '' ? 1 : Number(answer);
    const chosen = Number.isInteger(index) ? sessions[index - 1] : undefined;
    if (!chosen) {
      io.output.write(`vibe-agent: "${answer}" is not a number from 1 to ${sessions.length}.\n`);
      return { exitCode: EXIT.usage };
    }
    if (prompt !== undefined && prompt.trim() !== '') return { id: chosen.id, prompt };
    if (io.askPrompt === false) return { id: chosen.id };
    const next = await ask('Your next message: ');
    if (next === undefined) return gone();
    return next.trim() ? { id: chosen.id, prompt: next.trim() } : { exitCode: EXIT.usage };
  } finally {
    rl.close();
  }
}
