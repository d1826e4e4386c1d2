import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../providers/create-provider.js';
import { parseCliArgs } from './parse-command-line.js';
import { findCommand } from './command-registry.js';
import { UsageError } from './args/cli-args.js';
import { EXIT } from './settings/exit-codes.js';
import { safeStdout, safeStderr } from './display/safe-output.js';

// Only argument parsing (the parser and the commands' specs) is loaded up front; everything else, help included, is imported when it is needed.
async function main(argv: string[], packageVersion: () => string): Promise<number> {
  const args = parseCliArgs(argv);
  if (args.command === 'version') {
    safeStdout.write(`vibe-agent ${packageVersion()}\n`);
    return EXIT.answered;
  }
  if (args.command === 'help') {
    const { helpFor } = await import('./help-text.js');
    safeStdout.write(`${helpFor(args.helpTopic)}\n`);
    return EXIT.answered;
  }
  if (args.cwd !== undefined) checkDirectory('--cwd', args.cwd);

  const controller = new AbortController();
  let interrupts = 0;
  process.on('SIGINT', () => {
    interrupts++;
    if (interrupts > 1) process.exit(EXIT.aborted);
    controller.abort();
  });
  process.on('SIGTERM', () => controller.abort());
  // `vibe-agent "…" | head`: once nobody reads the output, stop the run cleanly instead of dying on EPIPE.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    controller.abort();
  });

  // Each command's run is a lazy import() in its spec (the bundler makes each a chunk).
  const command = findCommand(args.command);
  if (command) return command.run(args, controller.signal);
  if (args.background) return (await import('./commands/background/bg-command.js')).bgCommand(args);
  if (args.resume === '') {
    const { pickSession } = await import('./commands/run/session-picker.js');
    const workspace = resolve(args.cwd ?? process.cwd());
    const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true;
    const askPrompt = !(args.prompt === undefined && !args.json && process.stdout.isTTY && interactive);
    const picked = await pickSession(workspace, args.prompt, { input: process.stdin, output: process.stderr, interactive, askPrompt, signal: controller.signal });
    if ('exitCode' in picked) return picked.exitCode;
    args.resume = picked.id;
    if (picked.prompt !== undefined) args.prompt = picked.prompt;
  }
  let prompt = args.prompt;
  // A goal is its own task: `vibe-agent --goal "npm test passes"` needs no prompt, nor does a goal continued.
  const goalTask = args.goal !== undefined || args.continueGoal === true;
  if (prompt === undefined && goalTask) {
    const { runCommand } = await import('./commands/run/run-command.js');
    return runCommand(args, undefined, controller.signal);
  }
  if (prompt === undefined && !args.json && process.stdin.isTTY && process.stdout.isTTY) {
    const { interactiveCommand } = await import('./commands/interactive/interactive-command.js');
    return interactiveCommand(args, controller.signal);
  }
  if (prompt === undefined && !process.stdin.isTTY) {
    const { readPipedPrompt } = await import('./prompt/read-piped-prompt.js');
    prompt = await readPipedPrompt();
  }
  if (prompt === undefined || prompt.trim() === '') {
    throw new UsageError('No prompt given. Usage: vibe-agent "your task", echo "task" | vibe-agent, or vibe-agent alone in a terminal (see vibe-agent --help).');
  }
  const { runCommand } = await import('./commands/run/run-command.js');
  return runCommand(args, prompt, controller.signal);
}

function checkDirectory(flag: string, dir: string): void {
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (!stat) throw new UsageError(`${flag} ${dir}: no such directory.`);
  if (!stat.isDirectory()) throw new UsageError(`${flag} ${dir} is not a directory.`);
}

let settled = false;
// Node exits when nothing is left to wait on, even with main() unfinished: that must not look like success.
process.on('beforeExit', () => {
  if (settled) return;
  settled = true;
  safeStderr.write('vibe-agent: internal error: the run stopped before it finished (nothing left to wait on).\n');
  process.exitCode = EXIT.providerError;
});

/** Runs the command line (main.ts answers a lone --version before loading this). */
export function runCli(argv: string[], packageVersion: () => string): void {
  main(argv, packageVersion).then(
    (code) => {
      settled = true;
      process.exitCode = code;
    },
    (error: unknown) => {
      settled = true;
      const err = error as Error;
      if (err instanceof UsageError || err instanceof ConfigError) {
        safeStderr.write(`vibe-agent: ${err.message}\n`);
        process.exitCode = EXIT.usage;
        return;
      }
      safeStderr.write(`vibe-agent: unexpected error: ${err.stack ?? String(error)}\n`);
      process.exitCode = EXIT.providerError;
    },
  );
}
