/**
 * The agent's own secrets are not the project's: a `bash` child (and a cloned repository's
 * `npm test` run through it) gets the environment without them. A model provider's key is any
 * `*_API_KEY` variable (every preset's key variable has that shape); `secrets` adds values such
 * as `--api-key`, removed from whatever variable holds them.
 */
export interface ShellEnvOptions {
  /** Variables passed on although they look like the agent's keys (`--pass-env NAME`). */
  passEnv?: readonly string[];
  /** Secret values: a variable holding one of them is removed too. */
  secrets?: readonly (string | undefined)[];
}

const PROVIDER_KEY = /_API_KEY$/i;

export function shellEnvironment(env: NodeJS.ProcessEnv, options: ShellEnvOptions = {}): NodeJS.ProcessEnv {
  const passed = new Set(options.passEnv ?? []);
  const secrets = new Set((options.secrets ?? []).filter((value): value is string => value !== undefined && value !== ''));
  const child: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (!passed.has(name) && (PROVIDER_KEY.test(name) || secrets.has(value))) continue;
    child[name] = value;
  }
  return { ...child, GIT_TERMINAL_PROMPT: '0', PAGER: 'cat' };
}
