import type { AgentEvent } from '../../../contracts/events.js';
import { createTextRenderer } from './render-text.js';
import { colorEnabled, createTheme } from '../../display/theme.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { WaitStatus } from '../../display/wait-status.js';
import { MarkdownStream } from '../../tui/markdown-stream.js';
import { redactingWriter } from '../../../secrets/redacting-writer.js';
import { ownSecrets } from '../../../secrets/own-redactor.js';

/**
 * A one-shot run's text output: the answer on stdout, the process on stdout when it is a terminal
 * (stderr when piped), and on a terminal stderr the wait line while the model or a tool is waited on.
 * On a terminal the answer is rendered Markdown (tables drawn to its width; colour unless NO_COLOR);
 * piped, it is the model's text byte for byte.
 * Both outputs are redacted as streams, under the renderer (see redactingWriter): a key split over
 * deltas or writes never comes out in parts; what could begin a key is written at the next event
 * that is not a delta.
 */
export function oneShotRenderer(secrets: readonly string[] = ownSecrets()): (event: AgentEvent) => void {
  const stdoutIsTty = process.stdout.isTTY === true;
  const color = colorEnabled(stdoutIsTty ? process.stdout : process.stderr);
  const columns = () => process.stdout.columns || 100;
  const markdown = stdoutIsTty ? new MarkdownStream(createTheme(color), columns) : undefined;
  const stdout = redactingWriter(safeStdout, secrets);
  const stderr = redactingWriter(safeStderr, secrets);
  const renderText = createTextRenderer({
    out: stdout,
    info: stdoutIsTty ? stdout : stderr,
    color,
    holdUntilWhole: !stdoutIsTty,
    ...(markdown ? { markdown } : {}),
  });
  const render = (event: AgentEvent) => {
    renderText(event);
    if (event.type === 'text_delta' || event.type === 'reasoning_delta') return;
    stdout.flush();
    stderr.flush();
  };
  if (process.stderr.isTTY !== true) return render;
  return new WaitStatus({
    out: process.stderr,
    theme: createTheme(colorEnabled(process.stderr)),
    columns: () => process.stderr.columns || columns(),
    // The answer's line being written shows in the wait line's place until it is whole (a terminal stdout only).
    ...(markdown ? { preview: () => markdown.partial(columns() - 4)?.split('\n').at(-1) } : {}),
  }).wrap(render);
}
