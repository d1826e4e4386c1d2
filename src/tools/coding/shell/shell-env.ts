import { heldSecret } from '../../../secrets/held-secrets.js';
import { isSecretName } from '../../../session/redact.js';

/**
 * The agent's own secrets are not the project's: every child the agent starts (a `bash` command
 * and a cloned repository's `npm test` run through it, hooks, MCP stdio servers, checkers) gets the
 * environment without them. A secret is any variable whose name says so (`*_KEY`, `*_TOKEN`,
 * `*_SECRET`, `*PASSWORD`: every provider's key variable among them); `secrets` adds values such
 * as `--api-key`, removed from whatever variable holds them. The CLI has already taken its secret
 * variables out of process.env (held-secrets.ts); one named in `passEnv` is put back for the child.
 */
export interface ShellEnvOptions {
  /** Variables passed on although they look like the agent's keys (`--pass-env NAME`). */
  passEnv?: readonly string[];
  /** Secret values: a variable holding one of them is removed too. */
  secrets?: readonly (string | undefined)[];
}

export function childEnvironment(env: NodeJS.ProcessEnv, options: ShellEnvOptions = {}): NodeJS.ProcessEnv {
  const passed = new Set(options.passEnv ?? []);
  const secrets = new Set((options.secrets ?? []).filter((value): value is string => value !== undefined && value !== ''));
  const child: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (!passed.has(name) && (isSecretName(name) || secrets.has(value))) continue;
    child[name] = value;
  }
  for (const name of passed) {
    const value = child[name] ?? heldSecret(name);
    if (value !== undefined) child[name] = value;
  }
  return child;
}

/** A `bash` command's environment: the child environment, with nothing that would wait for a terminal. */
export function shellEnvironment(env: NodeJS.ProcessEnv, options: ShellEnvOptions = {}): NodeJS.ProcessEnv {
  return { ...childEnvironment(env, options), GIT_TERMINAL_PROMPT: '0', PAGER: 'cat' };
}
