#!/usr/bin/env node
// `npm test` runs the MCP conformance suite and the MCP Inspector CLI, which need Node 22: they and a
// Node 22 binary are npm packages pinned in .ci/mcp-conformance's own lockfile (see .ci/run). This
// installs them there when they are missing or older than that lockfile, so `npm test` works in a
// fresh clone; otherwise it does nothing.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../.ci/mcp-conformance/', import.meta.url));
const mtime = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs;
const installed = mtime(`${dir}node_modules/.package-lock.json`);
const wanted = mtime(`${dir}package-lock.json`);
if (installed === undefined || wanted === undefined || installed < wanted) {
  process.stderr.write('installing the MCP conformance suite and Node 22 into .ci/mcp-conformance (once)…\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['ci', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { stdio: 'inherit' });
}
