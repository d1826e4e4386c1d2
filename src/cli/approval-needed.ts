import type { UnaskedCall } from '../permissions/unasked-call.js';
import { oneLine } from './display/summarize.js';
import { visibleText } from './display/visible-text.js';

/** What a `--json` stop event carries about the calls refused for want of approval. */
export type ApprovalNeeded = Array<Pick<UnaskedCall, 'tool' | 'summary' | 'allow'>>;

/** Collects the calls a headless run refused because nobody could be asked (see PermissionOptions.onUnasked). */
export class UnaskedCalls {
  readonly calls: UnaskedCall[] = [];
  readonly record = (call: UnaskedCall): void => {
    this.calls.push(call);
  };

  get any(): boolean {
    return this.calls.length > 0;
  }

  forJson(): ApprovalNeeded {
    return this.calls.map(({ tool, summary, allow }) => ({ tool, summary, allow }));
  }

  /** The stderr lines: which calls, and the three ways to allow them (`--yes`, a mode, an allow rule). */
  /** `exitCode`: named when it is the run's own for this (a brake or an error keeps its code). */
  explain(exitCode: number | undefined, userConfigPath: string): string {
    const count = this.calls.length;
    const lines = [
      `vibe-agent: ${count === 1 ? '1 call needed' : `${count} calls needed`} approval and there was no terminal to ask, so ${count === 1 ? 'it was' : 'they were'} refused${exitCode === undefined ? '' : ` (exit ${exitCode})`}:`,
      ...this.calls.slice(0, 10).map((call) => `  ${call.tool}: ${oneLine(visibleText(call.summary), 100)}`),
      ...(count > 10 ? [`  … and ${count - 10} more`] : []),
    ];
    const rules = [...new Set(this.calls.map((call) => call.allow))];
    const ruleText = `"permissions": { "allow": [${rules.map((rule) => JSON.stringify(rule)).join(', ')}] }`;
    const ruleWhere = `in ${userConfigPath} (a project's .vibe-agent/config.json cannot allow calls)`;
    if (this.calls.every((call) => call.outsidePlan)) {
      lines.push('They lie outside the approved plan, which asks again in every mode: add them to the plan, or allow them with', `  ${ruleText}`, `  ${ruleWhere}`);
      return `${lines.join('\n')}\n`;
    }
    lines.push('To allow this, run again with one of:', '  --yes (or --permission-mode yolo): every call runs');
    if (this.calls.some((call) => call.category === 'edit' && !call.outsidePlan)) {
      const others = this.calls.some((call) => call.category !== 'edit');
      lines.push(`  --permission-mode auto-edit: file edits run${others ? '; commands and fetches are still refused' : ''}`);
    }
    lines.push(`  an allow rule, ${ruleText}`, `    ${ruleWhere}`);
    return `${lines.join('\n')}\n`;
  }
}
