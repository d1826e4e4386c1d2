import { isSecretName } from '../session/redact.js';
import { scrubOwnProcBlocks } from './scrub-own-proc.js';

/** The user's secret variables, taken out of process.env at start-up: kept in this process's memory only. */
const held = new Map<string, string>();

export interface HoldResult {
  names: string[];
  /** False when the initial blocks in /proc/<pid>/environ and cmdline could not be overwritten. */
  scrubbed: boolean;
}

/**
 * The CLI's first act: every variable whose name says it is a secret (`*_KEY`, `*_TOKEN`,
 * `*_SECRET`, `*PASSWORD`: every provider's key among them) leaves process.env, so no child the
 * agent starts inherits it, and its bytes are wiped from what /proc/<pid>/environ shows; values
 * given on the command line (`--api-key`) are wiped from /proc/<pid>/cmdline. The agent reads them
 * back through agentEnvironment(); a child gets one only when the user names it (`--pass-env`, an
 * MCP server's `env`).
 */
export function holdSecretVariables(env: NodeJS.ProcessEnv = process.env, argvSecrets: readonly string[] = []): HoldResult {
  const names = Object.keys(env).filter((name) => isSecretName(name) && env[name] !== undefined);
  for (const name of names) {
    held.set(name, env[name]!);
    delete env[name];
  }
  const scrubbed = names.length === 0 && argvSecrets.length === 0 ? true : scrubOwnProcBlocks(names, argvSecrets.filter((value) => value !== ''));
  return { names, scrubbed };
}

/** The environment the agent itself reads settings and keys from: process.env with the held secrets back in. */
export function agentEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return held.size === 0 ? env : { ...env, ...Object.fromEntries(held) };
}

/** A held secret, for a child the user named it for. */
export function heldSecret(name: string): string | undefined {
  return held.get(name);
}

/** The values of `--api-key` in the argument list, as the CLI's parser reads them. */
export function apiKeyArguments(argv: readonly string[]): string[] {
  return argv.flatMap((arg, index) => (arg === '--api-key' ? [argv[index + 1] ?? ''] : arg.startsWith('--api-key=') ? [arg.slice('--api-key='.length)] : []));
}
