import type { z } from 'zod';
import { didYouMean } from '../../contracts/did-you-mean.js';
import { isKnownProvider, unknownProviderMessage } from '../../providers/create-provider.js';
import { CONFIG_KEYS } from './settings.js';

/**
 * What is wrong in a config file that parsed, one line per problem, each with where it is
 * ('line 2, column 3: unknown key "modle" (did you mean "model"?)'), in the file's order. The schema's own words for
 * types; an unknown top-level key and an unknown provider get the same suggestion a mistyped flag does.
 */
export function configProblems(
  text: string,
  raw: unknown,
  schema: z.ZodType,
  issues: readonly z.core.$ZodIssue[],
  /** False for a project file: a provider there that is not on this machine is dropped with a warning anyway (loadConfig). */
  checkProvider: boolean,
): string[] {
  const problems: string[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      const known = issue.path.length === 0 ? CONFIG_KEYS : keysAt(schema, issue.path);
      for (const key of issue.keys) problems.push(`${where(text, [...issue.path, key])}: unknown key "${[...issue.path, key].join('.')}"${didYouMean(key, known)}`);
      continue;
    }
    problems.push(`${where(text, issue.path)}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const provider = (raw as { provider?: unknown } | undefined)?.provider;
  if (checkProvider && typeof provider === 'string' && !isKnownProvider(provider)) problems.push(`${where(text, ['provider'])}: ${unknownProviderMessage(provider)}`);
  return problems.sort((a, b) => lineOf(a) - lineOf(b));
}

const lineOf = (problem: string) => Number(/^line (\d+)/.exec(problem)?.[1] ?? 0);

/** The keys an object in the schema takes (`permissions` → allow, deny); none when the path leads elsewhere. */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node: unknown = schema;
  for (const key of path) node = (objectOf(node)?.shape as Record<PropertyKey, unknown> | undefined)?.[key];
  return Object.keys(objectOf(node)?.shape ?? {});
}

/** The object schema inside optional and default wrappers. */
function objectOf(node: unknown): { shape?: object } | undefined {
  let current = node as { shape?: object; unwrap?: () => unknown } | undefined;
  for (let depth = 0; depth < 5 && current && !current.shape && typeof current.unwrap === 'function'; depth++) current = current.unwrap() as typeof current;
  return current;
}

/**
 * "line 2, column 3" of the key a problem is about: the first `"key":` after its parent's, which
 * is the key itself in any file a person wrote (the file is valid JSON by now); "the file" when
 * the key is not found (a problem with the whole file).
 */
function where(text: string, keys: readonly PropertyKey[]): string {
  let offset = 0;
  for (const key of keys) {
    if (typeof key !== 'string') continue;
    const match = new RegExp(`"${escapeRegExp(JSON.stringify(key).slice(1, -1))}"\\s*:`).exec(text.slice(offset));
    if (!match) return 'the file';
    offset += match.index;
  }
  if (offset === 0 && keys.length === 0) return 'the file';
  const before = text.slice(0, offset);
  return `line ${before.split('\n').length}, column ${offset - (before.lastIndexOf('\n') + 1) + 1}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
