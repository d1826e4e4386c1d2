import type { ToolCall } from './messages.js';

/** What the user is shown before a call that writes or executes. */
export interface ApprovalRequest {
  call: ToolCall;
  tool: string;
  /** One line: the command, the file path. */
  summary: string;
  /** More to show: a unified diff for edits, the full command for shell. */
  detail?: string;
  /** The rule an "always" answer grants for the session, e.g. "bash(git status*)" or "edit". */
  always?: string;
}

/** yes: this call; always: this tool (or pattern) for the rest of the session; no: deny. */
export type ApprovalAnswer = 'yes' | 'no' | 'always';

/** Asks the user; the terminal UI and the plain prompt both implement it. */
export type AskApproval = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;
