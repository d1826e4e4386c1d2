import { DEFAULT_SYSTEM_PROMPT } from '../core/system-prompt.js';
import type { CliArgs } from './args.js';
import { createCliAuthorize } from './permission-setup.js';
import { prepareRun } from './prepare-run.js';
import { colorEnabled } from './style.js';
import { historyPath, InputHistory } from './tui/input-history.js';
import { InteractiveSession } from './tui/interactive.js';
import { createTheme } from './tui/theme.js';

/** `vibe-agent` with no prompt in a terminal: the interactive session. */
export async function interactiveCommand(args: CliArgs, signal: AbortSignal): Promise<number> {
  const { workspace, config, resolved, provider, tools, maxTurns, temperature } = await prepareRun(args);
  const session = new InteractiveSession({
    input: process.stdin,
    output: process.stdout,
    theme: createTheme(colorEnabled(process.stdout)),
    provider,
    model: resolved.model,
    tools,
    system: DEFAULT_SYSTEM_PROMPT,
    workspace,
    maxTurns,
    temperature,
    history: new InputHistory(historyPath(workspace)),
    signal,
    services: {
      // The same policy as one-shot runs (modes, rules, "always" grants), asking in the UI.
      authorize: (ask) => createCliAuthorize(args, config, ask),
      models: () => [resolved.model],
    },
  });
  return session.run();
}
