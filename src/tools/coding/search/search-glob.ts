import picomatch from 'picomatch';

export type PathFilter = (pathFromSearchRoot: string) => boolean;
export type CompiledGlob = { ok: true; test: PathFilter; basenameOnly: boolean } | { ok: false; error: string };

/**
 * A file filter, matched against the path relative to the searched directory. A glob without
 * "/" matches the file name at any depth ("*.ts"); one with "/" matches the whole relative path
 * ("src/**\/*.ts"). Dot files match like any other file.
 */
export function compileGlob(glob: string): CompiledGlob {
  const pattern = glob.replace(/^\.\//, '').replace(/^\/+/, '');
  if (pattern === '') return { ok: false, error: `The glob ${JSON.stringify(glob)} is empty.` };
  const basenameOnly = !pattern.includes('/');
  try {
    const test = picomatch(pattern, { dot: true, basename: basenameOnly });
    return { ok: true, test, basenameOnly };
  } catch (error) {
    return { ok: false, error: `Invalid glob ${JSON.stringify(glob)}: ${(error as Error).message}.` };
  }
}

const SIMPLE_NAME_GLOB = /^[A-Za-z0-9_.*?-]*(\{[A-Za-z0-9_.*?,-]+\})?[A-Za-z0-9_.*?-]*$/;

/**
 * The glob as a ripgrep file type, when ripgrep's glob syntax reads it the same way or more
 * broadly. ripgrep applies types after ignore files (a -g glob would override them), and the
 * exact filter is applied to its results anyway, so this only spares ripgrep reading files.
 */
export function ripgrepTypeGlob(glob: string): string | undefined {
  const pattern = glob.replace(/^\.\//, '');
  return !pattern.includes('/') && SIMPLE_NAME_GLOB.test(pattern) ? pattern : undefined;
}
