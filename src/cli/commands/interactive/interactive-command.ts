import { collectSecrets, createRedactor } from '../../../session/redact.js';
import type { CliArgs } from '../../args/cli-args.js';
import { createInteractiveServices } from './interactive-services.js';
import { prepareRun } from '../../setup/prepare-run.js';
import { historyPath, InputHistory } from '../../tui/input-history.js';
import { InteractiveSession } from '../../tui/interactive.js';
import { colorEnabled, createTheme } from '../../display/theme.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';

/** `vibe-agent` with no prompt in a terminal: the interactive session, a front end of the conversation core. */
export async function interactiveCommand(args: CliArgs, signal: AbortSignal): Promise<number> {
  const prepared = await prepareRun(args);
  const { workspace, tools } = prepared;
  try {
    const services = await createInteractiveServices(args, prepared);
    const session = new InteractiveSession({
      input: process.stdin,
      output: process.stdout,
      theme: createTheme(colorEnabled(process.stdout)),
      services,
      providerName: prepared.provider.name,
      model: prepared.resolved.model,
      tools,
      workspace,
      maxTurns: prepared.maxTurns,
      // Like session files, the history file never holds the value of a key or token.
      history: new InputHistory(historyPath(workspace), createRedactor(collectSecrets(agentEnvironment(), [args.apiKey]))),
      signal,
      suspend: suspendProcess,
    });
    return await session.run();
  } finally {
    await prepared.mcp.close();
  }
}

/**
 * Ctrl-Z in raw mode is only a key: stop the process as the terminal would have. The stop takes
 * effect inside `kill`; the timer, overdue once the process runs again, also covers a stop the
 * kernel discards (a process group without a job-control shell above it), so the UI never hangs.
 */
function suspendProcess(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      process.off('SIGCONT', done);
      resolve();
    };
    const timer = setTimeout(done, 50);
    process.on('SIGCONT', done);
    process.kill(process.pid, 'SIGTSTP');
  });
}
