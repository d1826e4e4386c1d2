import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository's own TypeScript, linked into a fixture's node_modules so the checker finds "the project's" tsc. */
const REPO_TYPESCRIPT = resolve(import.meta.dirname, '../../node_modules/typescript');

/** A TypeScript project in a temp folder: tsconfig.json, node_modules/typescript and `files` under it. */
export async function makeTsProject(files: Record<string, string>): Promise<string> {
  const ws = await realpath(await mkdtemp(join(tmpdir(), 'vibe-diag-')));
  await mkdir(join(ws, 'node_modules'));
  await symlink(REPO_TYPESCRIPT, join(ws, 'node_modules', 'typescript'));
  await writeFile(join(ws, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', skipLibCheck: true, types: [] }, include: ['src'] }));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(ws, path, '..'), { recursive: true });
    await writeFile(join(ws, path), text);
  }
  return ws;
}
