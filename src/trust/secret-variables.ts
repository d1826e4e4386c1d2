/**
 * A variable that, by its name, holds one of the user's keys, tokens or passwords: what a
 * repository's MCP entry must not send anywhere through `${VAR}` unless the user says so.
 * Wider than the redactor's list on purpose: a false alarm costs one setting, a miss a key.
 */
const SECRET_NAME = /(?:^|_)(?:KEY|PASS|PAT|AUTH|CREDENTIALS?|COOKIE)$|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|SECRET|TOKEN|PASSWORD|PASSWD/i;

export function isSecretVariable(name: string): boolean {
  return SECRET_NAME.test(name);
}
