// Bundles the CLI (after tsc) into dist/cli/main.js with code splitting: one file for what every
// run needs, lazy chunks for each provider SDK, the tokenizer, the TUI and the rest, so a run opens
// about 20 files instead of about 390. The library (dist/index.js) stays tsc's output, unbundled.
import { build } from 'esbuild';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url).pathname;
// The unbundled entry stays, renamed, as the bundle's input (and for stack traces of tsc output).
// Run twice without tsc in between, main.js is the bundle already: keep the tsc output it came from.
if (!readFileSync(`${dist}cli/main.js`, 'utf8').includes('__vibeCreateRequire')) renameSync(`${dist}cli/main.js`, `${dist}cli/main.unbundled.js`);
rmSync(`${dist}cli/chunks`, { recursive: true, force: true });
await build({
  entryPoints: { main: `${dist}cli/main.unbundled.js` },
  outdir: `${dist}cli`,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // CommonJS dependencies (picomatch, ignore) call require() for Node's own modules.
  banner: { js: "import { createRequire as __vibeCreateRequire } from 'node:module'; const require = __vibeCreateRequire(import.meta.url);" },
});

// `--help` is the settings table rendered; written once here so that `vibe-agent --help` only reads a file.
const { helpText } = await import(`${dist}cli/help-text.js`);
writeFileSync(`${dist}cli/help.txt`, `${helpText()}\n`);
