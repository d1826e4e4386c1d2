import { variableReferences } from '../mcp/expand-variables.js';
import type { ServerSpec } from '../mcp/server-spec.js';
import { isSecretVariable } from './secret-variables.js';

/** One of the user's secrets that a server entry would expand, where it is written and where it goes. */
export interface SecretUse {
  variable: string;
  /** `header X-Token`, `env GITHUB_TOKEN`, `argument 2`, `URL`, `command`, `cwd`. */
  place: string;
  /** The URL's origin for a remote server; the program for a local one. */
  destination: string;
}

/** Every `${VAR}` (or `$VAR`) in the entry whose name says it holds a key, token or password. */
export function secretUses(spec: ServerSpec): SecretUse[] {
  const destination = spec.transport === 'stdio' ? `the program ${spec.command}` : originOf(spec.url);
  return placedValues(spec).flatMap(([place, value]) => [...new Set(variableReferences(value))].filter(isSecretVariable).map((variable) => ({ variable, place, destination })));
}

/** Every value of the entry that is expanded, with where it is written. */
function placedValues(spec: ServerSpec): Array<[place: string, value: string]> {
  const named = (kind: string, values: Record<string, string>) => Object.entries(values).map(([name, value]): [string, string] => [`${kind} ${name}`, value]);
  if (spec.transport !== 'stdio') return [['URL', spec.url], ...named('header', spec.headers)];
  const args = spec.args.map((arg, index): [string, string] => [`argument ${index + 1}`, arg]);
  return [['command', spec.command], ...args, ...named('env', spec.env), ...(spec.cwd !== undefined ? [['cwd', spec.cwd] as [string, string]] : [])];
}

function originOf(url: string): string {
  try {
    const { origin } = new URL(url);
    if (origin !== 'null') return origin;
  } catch {
    // A URL with a variable in its host: the whole of it is what the user has to judge.
  }
  return url;
}

/** The uses the user has not allowed for this server by name (`mcpPassEnv`). */
export function unallowedSecretUses(name: string, spec: ServerSpec, allowed: Readonly<Record<string, readonly string[]>>): SecretUse[] {
  const forServer = Object.hasOwn(allowed, name) ? allowed[name]! : [];
  return secretUses(spec).filter((use) => !forServer.includes(use.variable));
}
