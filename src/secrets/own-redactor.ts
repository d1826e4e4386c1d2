import { collectSecrets, createRedactor } from '../session/redact.js';
import { agentEnvironment, apiKeyArguments } from './held-secrets.js';

/**
 * The redactor for everything this process writes that has no run's redactor at hand: the user's
 * secret variables (held ones included) and the `--api-key` values on its own command line.
 */
export function ownRedactor(env: NodeJS.ProcessEnv = process.env, extra: Array<string | undefined> = []): (text: string) => string {
  return createRedactor(ownSecrets(env, extra));
}

/** The secrets ownRedactor removes, for a writer that redacts across its pieces (see redactingWriter). */
export function ownSecrets(env: NodeJS.ProcessEnv = process.env, extra: Array<string | undefined> = []): string[] {
  return collectSecrets(agentEnvironment(env), [...apiKeyArguments(process.argv), ...extra]);
}
