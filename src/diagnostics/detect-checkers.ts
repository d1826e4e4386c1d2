import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Checker } from './diagnostic.js';
import { TSC_SERVER_SCRIPT } from './tsc-server-script.js';
import { findOnPath } from '../contracts/find-on-path.js';

const SCRIPT_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const ESLINT_CONFIGS = ['eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', 'eslint.config.ts', '.eslintrc', '.eslintrc.js', '.eslintrc.cjs', '.eslintrc.json', '.eslintrc.yml', '.eslintrc.yaml'];
const PYTHON_MARKERS = ['pyproject.toml', 'ruff.toml', '.ruff.toml', 'setup.py', 'setup.cfg', 'requirements.txt'];

/**
 * The checkers this workspace has, best first, found with a handful of stat calls (no process is
 * started): the project's own TypeScript (kept running, see tsc-server.ts), its ESLint, ruff or go on PATH next to the project's marker files.
 */
export function detectCheckers(workspace: string, env: NodeJS.ProcessEnv = process.env): Checker[] {
  const found: Checker[] = [];
  const at = (...parts: string[]) => join(workspace, ...parts);
  const typescript = at('node_modules', 'typescript');
  if (isFile(at('tsconfig.json')) && isFile(join(typescript, 'package.json'))) {
    found.push({
      name: 'tsc',
      command: 'tsc --noEmit -p tsconfig.json (node_modules/typescript, kept running)',
      argv: [process.execPath, '-e', TSC_SERVER_SCRIPT, typescript, 'tsconfig.json'],
      format: 'tsc',
      scope: 'project',
      persistent: true,
      extensions: SCRIPT_EXTENSIONS,
    });
  }
  const eslint = at('node_modules', '.bin', 'eslint');
  if (ESLINT_CONFIGS.some((name) => isFile(at(name))) && isFile(eslint)) {
    found.push({ name: 'eslint', command: 'node_modules/.bin/eslint --format json FILE', argv: [eslint, '--format', 'json', '{file}'], format: 'eslint-json', scope: 'file', extensions: SCRIPT_EXTENSIONS });
  }
  const ruff = PYTHON_MARKERS.some((name) => isFile(at(name))) ? findOnPath('ruff', env) : undefined;
  if (ruff) {
    found.push({ name: 'ruff', command: 'ruff check --output-format json FILE', argv: [ruff, 'check', '--output-format', 'json', '{file}'], format: 'ruff-json', scope: 'file', extensions: ['.py', '.pyi'] });
  }
  const go = isFile(at('go.mod')) ? findOnPath('go', env) : undefined;
  if (go) found.push({ name: 'go vet', command: 'go vet ./...', argv: [go, 'vet', './...'], format: 'lines', scope: 'project', extensions: ['.go'] });
  return found;
}

/** The checker that looks at this file, if any. */
export function checkerFor(checkers: readonly Checker[], file: string): Checker | undefined {
  const lower = file.toLowerCase();
  return checkers.find((checker) => checker.extensions.length === 0 || checker.extensions.some((ext) => lower.endsWith(ext)));
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}
