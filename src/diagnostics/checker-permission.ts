import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';
import type { ToolContext } from '../contracts/tool.js';
import type { Checker } from './diagnostic.js';

/**
 * The checker's run as the permission policy sees it: a call of `diagnostics` with the command
 * as its shell-command subject, category execute. So `ask` asks, auto-edit asks (an edit does not
 * imply running the repository's code), yolo runs, and rules such as `diagnostics(*)` apply.
 */
export const diagnosticsAction = defineTool({
  name: 'diagnostics',
  description: "Runs the project's checker after an edit (not offered to the model).",
  parameters: z.object({ command: z.string() }),
  permission: { category: 'execute', subject: ({ command }) => ({ kind: 'shell-command', value: command }) },
  execute: async () => 'not callable',
});

export type CheckerDecision = { allowed: true } | { allowed: false; reason: string };

/**
 * Asks once per checker command and remembers the answer for the session, so an edit after a
 * "no" is not asked about again. Without a policy in force the library runs it (`runUnchecked`).
 */
export class CheckerPermission {
  private readonly decided = new Map<string, Promise<CheckerDecision>>();

  constructor(private readonly runUnchecked: boolean) {}

  /** The decision and whether it was just made (a refusal is reported once). */
  async check(checker: Checker, context: ToolContext): Promise<{ decision: CheckerDecision; fresh: boolean }> {
    const known = this.decided.get(checker.command);
    if (known) return { decision: await known, fresh: false };
    const asked = this.ask(checker, context);
    this.decided.set(checker.command, asked);
    return { decision: await asked, fresh: true };
  }

  private async ask(checker: Checker, context: ToolContext): Promise<CheckerDecision> {
    if (!context.authorizeAction) return this.runUnchecked ? { allowed: true } : { allowed: false, reason: 'no permission check is in force for it' };
    return context.authorizeAction({
      tool: diagnosticsAction,
      args: { command: checker.command },
      preview: { summary: `diagnostics: ${checker.command}`, detail: `Runs ${checker.name} after each file edit to report the errors the edit introduced (it runs the project's code, like a shell command).` },
    });
  }
}
