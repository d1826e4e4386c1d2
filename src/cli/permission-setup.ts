import { createPermissionPolicy, type PermissionMode } from '../permissions/permission-policy.js';
import { ConfigError } from '../providers/create-provider.js';
import type { AskApproval } from '../tools/approval.js';
import type { Authorize } from '../contracts/tool.js';
import type { CliArgs } from './args.js';
import type { FileConfig } from './config.js';
import { colorEnabled } from './display/theme.js';
import { createTerminalApproval } from './terminal-approval.js';

/** Flags beat config; `--yes` is yolo; without either, every write and shell call is confirmed. */
export function permissionModeFor(args: CliArgs, config: FileConfig): PermissionMode {
  if (args.yes) return 'yolo';
  return args.permissionMode ?? config.permissionMode ?? 'ask';
}

/**
 * The CLI's permission check. A one-shot run asks on the terminal when stdin and stderr are
 * both terminals; otherwise (CI, pipes) calls that need approval are denied, never left hanging.
 */
export function createCliAuthorize(args: CliArgs, config: FileConfig, ask: AskApproval | undefined = terminalAsk()): Authorize {
  try {
    return createPermissionPolicy({
      mode: permissionModeFor(args, config),
      allow: config.permissions?.allow ?? [],
      deny: config.permissions?.deny ?? [],
      ...(ask ? { ask } : {}),
    });
  } catch (error) {
    throw new ConfigError(`Invalid permission rule in config: ${(error as Error).message}`);
  }
}

function terminalAsk(): AskApproval | undefined {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  return createTerminalApproval({ input: process.stdin, output: process.stderr, color: colorEnabled(process.stderr) });
}
