import { basename } from 'node:path';

const ENV_TEMPLATES = new Set(['.env.example', '.env.sample', '.env.template']);
const SECRET_NAMES = new Set(['.env', '.npmrc', '.netrc', '.pgpass', 'credentials.json', '.git-credentials', '.pypirc', '.htpasswd']);
/** Directories whose files are credentials, and files that are only in the named directory. */
const SECRET_DIRS = new Set(['.ssh', '.gnupg']);
const SECRET_IN_DIR: Record<string, string> = { '.aws': 'credentials', '.docker': 'config.json', '.kube': 'config' };
const SECRET_EXTENSIONS = ['.pem', '.key', '.p12', '.pfx'];
const SSH_KEY_PREFIXES = ['id_rsa', 'id_ed25519', 'id_ecdsa'];

/**
 * True when the path names a file that usually holds credentials. Case-insensitive: on macOS and
 * Windows `.ENV` is `.env`, and `SERVER.PEM` is a key wherever it is.
 */
export function isSecretPath(relativeOrAbsolute: string): boolean {
  const segments = relativeOrAbsolute.toLowerCase().split(/[\\/]+/).filter((s) => s.length > 0);
  const name = basename(segments[segments.length - 1] ?? '');
  if (name === '') return false;
  if (ENV_TEMPLATES.has(name)) return false;
  if (SECRET_NAMES.has(name) || name.startsWith('.env.')) return true;
  if (SECRET_EXTENSIONS.some((ext) => name.endsWith(ext))) return true;
  if (SSH_KEY_PREFIXES.some((prefix) => name.startsWith(prefix))) return true;
  const parent = segments[segments.length - 2];
  if (segments.slice(0, -1).some((segment) => SECRET_DIRS.has(segment))) return true;
  return parent !== undefined && SECRET_IN_DIR[parent] === name;
}
