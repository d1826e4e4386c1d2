import type { ToolOutput } from '../contracts/tool.js';
import type { RunResult } from '../core/agent-options.js';

/**
 * A finished child as its parent's tool result: the answer; a hand-off when a brake stopped it (the
 * model's own, or what its last reply said when the budget allowed no hand-off request); an error
 * when its provider failed or it was cancelled.
 */
export function childOutcome(path: string, result: RunResult): ToolOutput {
  const reason = result.error ? `${result.stopReason}: ${result.error}` : result.stopReason;
  switch (result.stopReason) {
    case 'answered':
      return result.answer ?? '';
    case 'provider_error':
      return { output: `Subagent ${path} failed (${reason}). Its work is lost; retry the task or do it yourself.`, isError: true };
    case 'aborted':
      return { output: `Subagent ${path} was cancelled.`, isError: true };
    default:
      return `Subagent ${path} stopped before finishing (${reason}) after ${result.turns} turns. Hand-off:\n${result.handoff ?? lastWords(result)}`;
  }
}

/** What the child last said, with the calls it made: its progress as far as the history shows. */
function lastWords(result: RunResult): string {
  const assistants = result.messages.filter((message) => message.role === 'assistant');
  const said = assistants.map((message) => message.content.trim()).filter(Boolean).at(-1);
  const calls = assistants.flatMap((message) => message.toolCalls.map((call) => call.name));
  const tools = calls.length ? `Tool calls made: ${calls.join(', ')}.` : 'No tool calls were made.';
  return `${said ? `Its last reply: ${said}\n` : 'It gave no reply text. '}${tools}`;
}
