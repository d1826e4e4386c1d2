import type { ServerSpec } from './server-spec.js';

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/** The variables a value would expand (a default's text is taken as written, never expanded). */
export function variableReferences(text: string): string[] {
  return [...text.matchAll(VARIABLE)].map((match) => (match[1] ?? match[3])!);
}

/**
 * `${VAR}` and `${VAR:-default}` in a value, as Claude Code expands them (and `$VAR`, as Gemini
 * CLI does). A variable that is unset and has no default becomes empty and is reported.
 */
export function expandVariables(text: string, env: NodeJS.ProcessEnv, missing: Set<string>): string {
  return text.replace(VARIABLE, (_, braced: string | undefined, fallback: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return '';
  });
}

const expandAll = (values: Record<string, string>, env: NodeJS.ProcessEnv, missing: Set<string>): Record<string, string> =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, expandVariables(value, env, missing)]));

/** The spec with every variable expanded (command, args, env, cwd, url, headers), and the names that were unset. */
export function expandSpec(spec: ServerSpec, env: NodeJS.ProcessEnv): { spec: ServerSpec; missing: string[] } {
  const missing = new Set<string>();
  const expand = (text: string) => expandVariables(text, env, missing);
  const expanded: ServerSpec =
    spec.transport === 'stdio'
      ? { ...spec, command: expand(spec.command), args: spec.args.map(expand), env: expandAll(spec.env, env, missing), ...(spec.cwd !== undefined ? { cwd: expand(spec.cwd) } : {}) }
      : { ...spec, url: expand(spec.url), headers: expandAll(spec.headers, env, missing) };
  return { spec: expanded, missing: [...missing] };
}
