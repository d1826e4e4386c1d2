import type { AgentEvent } from '../../../contracts/events.js';
import { createTextRenderer } from './render-text.js';
import { colorEnabled, createTheme } from '../../display/theme.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { WaitStatus } from '../../display/wait-status.js';

/**
 * A one-shot run's text output: the answer on stdout, the process on stdout when it is a terminal
 * (stderr when piped), and on a terminal stderr the wait line while the model or a tool is waited on.
 */
export function oneShotRenderer(): (event: AgentEvent) => void {
  const stdoutIsTty = process.stdout.isTTY === true;
  const render = createTextRenderer({
    out: safeStdout,
    info: stdoutIsTty ? safeStdout : safeStderr,
    color: colorEnabled(stdoutIsTty ? process.stdout : process.stderr),
    holdUntilWhole: !stdoutIsTty,
  });
  if (process.stderr.isTTY !== true) return render;
  return new WaitStatus({ out: process.stderr, theme: createTheme(colorEnabled(process.stderr)) }).wrap(render);
}
