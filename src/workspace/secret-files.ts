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

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The extensions and the SSH key prefixes as one test of a lower-cased name. */
const SECRET_NAME_SHAPES = new RegExp(`(?:${SECRET_EXTENSIONS.map(escape).join('|')})$|^(?:${SSH_KEY_PREFIXES.map(escape).join('|')})`);
/** Whether a secret folder's name occurs anywhere in a path, in any case (the segments are then looked at). */
const SECRET_DIR_TEXT = new RegExp([...SECRET_DIRS].map(escape).join('|'), 'i');

/** Every name SECRET_IN_DIR lists: only a path ending in one of them needs its parent looked at. */
const NAMES_SECRET_IN_DIR = new Set(Object.values(SECRET_IN_DIR).flat());

/** The pieces of MAYBE_SECRET: a secret name or extension ending a path, a name starting like a key's or `.env.`, and words anywhere. */
const SECRET_ENDING = `(?:${[...SECRET_EXTENSIONS, ...SECRET_NAMES, ...NAMES_SECRET_IN_DIR].map(escape).join('|')})[\\\\/]*`;
const SECRET_NAME_START = `(?:\\.env\\.|${SSH_KEY_PREFIXES.map(escape).join('|')})`;
const SECRET_ANYWHERE = ['service[-_]?account', ...[...SECRET_DIRS].map(escape)];
const NOT_ASCII = '[^\\x00-\\x7f]';

/**
 * A test every secret path passes, and a few others: a secret name or extension at its end, a
 * name starting like a key's or `.env.`, "service account", a secret folder's name; and any
 * character outside ASCII (lower-casing one may give ASCII). Most paths fail it at once.
 */
export const MAYBE_SECRET = new RegExp([NOT_ASCII, `${SECRET_ENDING}$`, `(?:^|[\\\\/])${SECRET_NAME_START}`, ...SECRET_ANYWHERE].join('|'), 'i');

/** MAYBE_SECRET over NUL-separated paths at once: each path's start and end are a NUL's or the text's. */
const inRecords = (pieces: string[]) =>
  new RegExp([...pieces, `${SECRET_ENDING}(?=\\0|$)`, `(?:^|[\\\\/\\0])${SECRET_NAME_START}`, ...SECRET_ANYWHERE].join('|'), 'gi');
const MAYBE_SECRET_IN_ASCII_RECORDS = inRecords([]);
const MAYBE_SECRET_IN_RECORDS = inRecords([NOT_ASCII]);

/**
 * Where MAYBE_SECRET holds for paths joined by NULs (ripgrep's `--null` output): a position
 * inside each path it holds for, in increasing order, none inside a path it does not hold for.
 * One scan of the text in place of a test per path, which costs more than the rest of a
 * listing's handling of it. `ascii`: the caller knows the text has no other character.
 */
export function maybeSecretIn(records: string, ascii: boolean): number[] {
  const pattern = ascii ? MAYBE_SECRET_IN_ASCII_RECORDS : MAYBE_SECRET_IN_RECORDS;
  const found: number[] = [];
  pattern.lastIndex = 0;
  // The last character a match took is in the path it was found in (a name's start may take the NUL before it).
  while (pattern.exec(records) !== null) found.push(pattern.lastIndex - 1);
  return found;
}

function isSeparator(code: number): boolean {
  return code === 0x2f || code === 0x5c;
}

/**
 * True when the path names a file that usually holds credentials. Case-insensitive: on macOS and
 * Windows `.ENV` is `.env`, and `SERVER.PEM` is a key wherever it is. Called for every file a
 * search or a snapshot meets, so the common answer (an ordinary name, no secret folder in the
 * path) is found without splitting the path.
 */
export function isSecretPath(relativeOrAbsolute: string): boolean {
  return MAYBE_SECRET.test(relativeOrAbsolute) && looksSecret(relativeOrAbsolute);
}

/** isSecretPath without its first test; exported for the test that MAYBE_SECRET lets every secret path through. */
export function looksSecret(relativeOrAbsolute: string): boolean {
  let end = relativeOrAbsolute.length;
  while (end > 0 && isSeparator(relativeOrAbsolute.charCodeAt(end - 1))) end--;
  let start = end;
  while (start > 0 && !isSeparator(relativeOrAbsolute.charCodeAt(start - 1))) start--;
  // Only the name is lower-cased; the folders only when a secret folder's name may be among them.
  const name = relativeOrAbsolute.slice(start, end).toLowerCase();
  if (name === '') return false;
  if (ENV_TEMPLATES.has(name)) return false;
  if (SECRET_NAMES.has(name) || name.startsWith('.env.')) return true;
  if (SECRET_NAME_SHAPES.test(name)) return true;
  if (SERVICE_ACCOUNT.test(name)) return true;
  const inSecretDir = SECRET_DIR_TEXT.test(relativeOrAbsolute);
  if (!inSecretDir && !NAMES_SECRET_IN_DIR.has(name)) return false;
  const segments = relativeOrAbsolute.slice(0, start).toLowerCase().split(/[\\/]+/).filter((s) => s.length > 0);
  if (segments.some((segment) => SECRET_DIRS.has(segment))) return true;
  return isSecretInDir(segments[segments.length - 1], name);
}

/** Whether `name` (lower-cased) is a credential in a folder called `parent` (lower-cased). */
function isSecretInDir(parent: string | undefined, name: string): boolean {
  return parent !== undefined && Object.hasOwn(SECRET_IN_DIR, parent) && SECRET_IN_DIR[parent]!.includes(name);
}

function nameOf(path: string): string {
  let start = path.length;
  while (start > 0 && !isSeparator(path.charCodeAt(start - 1))) start--;
  return path.slice(start);
}

/** A secret test for the paths below some folders, and where it can be, a pre-test of many paths at once. */
export interface SecretsBelow {
  test(below: string): boolean;
  /** When every path `test` calls a secret passes MAYBE_SECRET: maybeSecretIn, to skip the paths it does not hold for. */
  candidatesIn?(records: string, ascii: boolean): number[];
}

/**
 * Whether `isSecretPath` holds for `prefix + '/' + below` with any of the prefixes, the prefixes'
 * folders looked at once: for the many files a search finds below one root. `below` is a clean
 * relative path (not empty, no leading or trailing separator).
 */
export function secretBelow(prefixes: readonly string[]): SecretsBelow {
  const folders = prefixes.map((prefix) => prefix.toLowerCase().split(/[\\/]+/).filter((segment) => segment.length > 0));
  if (folders.some((segments) => segments.some((segment) => SECRET_DIRS.has(segment)))) return { test: (below) => !ENV_TEMPLATES.has(nameOf(below).toLowerCase()) };
  const parents = folders.map((segments) => segments[segments.length - 1]).filter((parent) => parent !== undefined && Object.hasOwn(SECRET_IN_DIR, parent));
  if (parents.length === 0) return { test: isSecretPath, candidatesIn: maybeSecretIn };
  return {
    test: (below) => {
      if (isSecretPath(below)) return true;
      const name = nameOf(below);
      // Only a file straight below the prefix has the prefix's last folder as its parent.
      return name.length === below.length && parents.some((parent) => isSecretInDir(parent, name.toLowerCase()));
    },
    // Those names are among MAYBE_SECRET's endings, and lower-casing changes only ASCII or a path it holds for.
    candidatesIn: maybeSecretIn,
  };
}

/**
 * The one test every file tool applies (read_file, write_file, grep, list_files): a file is refused
 * when any name it is reached by — as written, or where it really leads — looks like a secret.
 */
export function refusesAsSecret(paths: readonly string[], allowSecrets: boolean | undefined): boolean {
  return allowSecrets !== true && paths.some(isSecretPath);
}
