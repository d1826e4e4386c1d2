import type { HeadlessStop } from './headless-stop.js';
import type { RefusedCall } from '../../../permissions/auto-review.js';
import { oneLine } from '../../display/summarize.js';
import { visibleText } from '../../display/visible-text.js';


/**
 * A headless run's end when the auto mode hands back to the person (3 refusals in a row, or 20 in
 * the session): the run is stopped, the refused calls are listed on stderr and in the `--json`
 * stop event, and the exit code is 4 (approval needed).
 */
export class HandBack {
  private readonly controller = new AbortController();
  refused: readonly RefusedCall[] | undefined;

  constructor(outer: AbortSignal) {
    if (outer.aborted) this.controller.abort(outer.reason);
    else outer.addEventListener('abort', () => this.controller.abort(outer.reason), { once: true });
  }

  /** The run's signal: the caller's, or the hand-back. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  readonly record = (refused: readonly RefusedCall[]): void => {
    this.refused = [...refused];
    this.controller.abort(new Error('handed back'));
  };

  annotate(event: HeadlessStop): HeadlessStop {
    if (!this.refused) return event;
    return { ...event, error: 'auto mode: the reviewer refused too many calls; handed back to the user', autoRefused: this.refused.map(({ tool, summary, reason }) => ({ tool, summary, reason })) };
  }

  explain(): string {
    const refused = this.refused ?? [];
    const lines = [
      `vibe-agent: auto mode refused ${refused.length === 1 ? '1 call' : `${refused.length} calls`} and handed the run back to you (exit 4):`,
      ...refused.slice(-20).map((call) => `  ${call.tool}: ${oneLine(visibleText(call.summary), 80)} — ${oneLine(visibleText(call.reason), 120)}`),
      'Run it again with the person watching (--permission-mode ask), or allow what it needs with a permissions.allow rule in your user config.',
    ];
    return `${lines.join('\n')}\n`;
  }
}
