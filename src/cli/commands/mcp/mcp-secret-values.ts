import { variableReferences } from '../../../mcp/expand-variables.js';
import { isSecretName } from '../../../session/redact.js';
import { isSecretVariable } from '../../../trust/secret-variables.js';

/** Well-known key prefixes (OpenAI/Anthropic, GitHub, GitLab, Slack, AWS, Google), and `Bearer …`/`Basic …`. */
const KEY_SHAPE = /^(?:sk-|ghp_|gho_|ghs_|github_pat_|glpat-|xox[abpr]-|AKIA|AIza)|^(?:Bearer|Basic|Token)\s+\S{8,}/i;
/** A long run of letters and digits with both in it (no slash or dot: not a path): what a generated key looks like. */
const TOKEN_SHAPE = /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_\-+=]{24,}$/;
const SECRET_HEADER = /^(?:authorization|proxy-authorization|cookie)$/i;

/** Whether a literal value (no `${VAR}` in it) given under this name looks like a key, token or password. */
export function looksSecret(name: string, value: string): boolean {
  if (value === '' || variableReferences(value).length > 0) return false;
  const named = SECRET_HEADER.test(name) || isSecretVariable(name.replace(/-/g, '_')) || isSecretName(name.replace(/-/g, '_').toUpperCase());
  return named || KEY_SHAPE.test(value) || TOKEN_SHAPE.test(value);
}

/** A command-line argument in a well-known key's shape (`sk-…`, `ghp_…`, `Bearer …`). */
function looksLikeKey(value: string): boolean {
  return variableReferences(value).length === 0 && KEY_SHAPE.test(value);
}

/** The value with its secret part hidden: `Bearer ****`, `sk-****`; a value that does not look secret as is. */
export function maskValue(name: string, value: string): string {
  if (!looksSecret(name, value)) return maskKeysIn(value);
  return masked(value);
}

function masked(value: string): string {
  const scheme = /^(Bearer|Basic|Token)\s+/i.exec(value)?.[0] ?? '';
  return `${scheme}****`;
}

/** A key's shape or a generated token's anywhere in a text, not only as the whole of it. */
const KEY_ANYWHERE = /(?:sk-|ghp_|gho_|ghs_|github_pat_|glpat-|xox[abpr]-|AKIA|AIza)[A-Za-z0-9_\-]{6,}/g;
const TOKEN_ANYWHERE = /(?<![A-Za-z0-9_\-+=])(?=[A-Za-z0-9_\-+=]*\d)(?=[A-Za-z0-9_\-+=]*[A-Za-z])[A-Za-z0-9_\-+=]{24,}(?![A-Za-z0-9_\-+=])/g;
/** `--api-key=…`, `--token=…`, `password=…`: an option whose name says its value is a secret. */
const SECRET_OPTION = /^(-{0,2}[A-Za-z0-9_.-]*(?:key|token|secret|password|passwd|credential|auth)[A-Za-z0-9_.-]*[=:])(.+)$/i;

/** Every key- or token-shaped run in the text hidden, wherever it stands (`--api-key=sk-…`, a URL path). */
export function maskKeysIn(text: string): string {
  if (variableReferences(text).length > 0) return text.replace(/\$\{[^}]*\}|[^$]+|\$/g, (part) => (part.startsWith('${') ? part : maskKeysIn(part)));
  return text.replace(KEY_ANYWHERE, '****').replace(TOKEN_ANYWHERE, '****');
}

/** Whether an argument is an option that takes a secret as the next argument (`--api-key VALUE`). */
export function isSecretOption(value: string): boolean {
  return /^-{1,2}[A-Za-z0-9_.-]*(?:key|token|secret|password|passwd|credential)$/i.test(value);
}

/** A command-line argument as `mcp get` shows it: one in a key's shape hidden, and any key inside it. */
export function maskArgument(value: string, afterSecretOption = false): string {
  if (looksLikeKey(value)) return masked(value);
  if (afterSecretOption && value !== '' && variableReferences(value).length === 0) return '****';
  const option = SECRET_OPTION.exec(value);
  if (option && variableReferences(option[2]!).length === 0) return `${option[1]}****`;
  return maskKeysIn(value);
}

/** A variable name to suggest for a value given under `name`: `Authorization` → `AUTHORIZATION`. */
export function variableFor(server: string, name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();
  return /^(AUTHORIZATION|COOKIE|PROXY_AUTHORIZATION)$/.test(cleaned) ? `${server.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}_TOKEN` : cleaned;
}
