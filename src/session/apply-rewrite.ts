import type { Message, ToolMessage } from '../contracts/messages.js';

/**
 * Replays a rewrite point onto a history rebuilt from a session: each stubbed output takes its
 * recorded stub's place. Returns why it could not (and changes nothing then).
 */
export function applyRewrite(history: Message[], stubbed: ReadonlyArray<{ at: number; message: ToolMessage }>): string | undefined {
  const misplaced = stubbed.find(({ at }) => history[at]?.role !== 'tool');
  if (misplaced) return `a rewrite stubs message ${misplaced.at}, which is not a tool output in the history`;
  for (const { at, message } of stubbed) history[at] = message;
  return undefined;
}
