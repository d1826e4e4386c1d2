import { basename } from 'node:path';

const ENV_TEMPLATES = new Set(['.env.example', '.env.sample', '.env.template', 'example.env', 'sample.env', 'template.env']);
const SECRET_NAMES = new Set([
  '.env', '.envrc', '.npmrc', '.netrc', '.pgpass', '.my.cnf', 'credentials.json', '.git-credentials', '.pypirc', '.htpasswd',
  '.yarnrc', '.yarnrc.yml', '.boto', '.s3cfg', '.dockercfg', '.vault-token', '.terraformrc', 'terraform.rc',
  'application_default_credentials.json', 'secrets.yml', 'secrets.yaml',
]);
/** Directories whose files are credentials, and files that are credentials only in the named directory. */
const SECRET_DIRS = new Set(['.ssh', '.gnupg']);
const SECRET_IN_DIR: Record<string, string[]> = {
  '.aws': ['credentials'],
  '.docker': ['config.json'],
  '.kube': ['config'],
  gh: ['hosts.yml'],
  '.cargo': ['credentials', 'credentials.toml'],
  '.gem': ['credentials'],
  '.composer': ['auth.json'],
  gcloud: ['credentials.db', 'access_tokens.db'],
};
const SECRET_EXTENSIONS = ['.env', '.pem', '.key', '.p12', '.pfx', '.ppk', '.keystore', '.jks', '.p8', '.keytab', '.kdbx', '.tfvars', '.tfvars.json', '.tfstate', '.tfstate.backup'];
const SSH_KEY_PREFIXES = ['id_rsa', 'id_dsa', 'id_ed25519', 'id_ecdsa'];
/** Files such as `my-project-service-account-1234.json` (a cloud service account's private key). */
const SERVICE_ACCOUNT = /service[-_]?account.*\.json$/;

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
  if (SERVICE_ACCOUNT.test(name)) return true;
  const parent = segments[segments.length - 2];
  if (segments.slice(0, -1).some((segment) => SECRET_DIRS.has(segment))) return true;
  return parent !== undefined && (SECRET_IN_DIR[parent] ?? []).includes(name);
}

/**
 * The one test every file tool applies (read_file, write_file, grep, list_files): a file is refused
 * when any name it is reached by — as written, or where it really leads — looks like a secret.
 */
export function refusesAsSecret(paths: readonly string[], allowSecrets: boolean | undefined): boolean {
  return allowSecrets !== true && paths.some(isSecretPath);
}
