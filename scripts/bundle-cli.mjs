// Bundles the CLI (after tsc) into dist/cli/main.js with code splitting: one file for what every
// run needs, lazy chunks for each provider SDK, the tokenizer, the TUI and the rest, so a run opens
// about 20 files instead of about 390. The library (dist/index.js) stays tsc's output, unbundled.
import { build } from 'esbuild';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const BANNER = "import { createRequire as __vibeCreateRequire } from 'node:module'; const require = __vibeCreateRequire(import.meta.url);";

// zod's `locales` namespace holds every language's error messages (370 KB, half of zod's chunk);
// the CLI only ever uses English, the default, so the bundle gets a namespace with `en` alone.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes('/node_modules/zod/') ? { path: join(dirname(args.importer), '../locales/en.js'), namespace: 'zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({ contents: `export { default as en } from ${JSON.stringify(args.path)};`, loader: 'js', resolveDir: dirname(args.path) }));
  },
};

// esbuild puts modules in one chunk when the same entry points (lazy imports count) reach them. The
// commands below share different parts of what a one-shot run loads, which cut that into ~65 small
// chunks, and a run paid Node's resolve/load per file (~40 ms at start on 2 cores). Each of them
// importing run-command too makes the run's whole static closure one entry-set: ~12 chunks. They
// load a little more (most of it they loaded already); a one-shot run is the path that counts.
const RUN_CLOSURE_SHARERS = /\/dist\/cli\/([a-z-]+-command|demo|compare-protocols|session-picker)\.js$/;
const oneRunClosure = {
  name: 'one-run-closure',
  setup(build) {
    build.onLoad({ filter: RUN_CLOSURE_SHARERS }, (args) => {
      const code = readFileSync(args.path, 'utf8');
      return { contents: args.path.endsWith('/run-command.js') ? code : `${code}\nimport './run-command.js';\n`, loader: 'js' };
    });
  },
};

/**
 * The banner gives CommonJS code a `require`; each chunk that never uses it loses it again (one
 * createRequire less per file a run opens). The banner is the first line: its source map line is empty.
 */
function stripUnusedBanners(dir) {
  const files = [`${dir}/main.js`, ...readdirSync(`${dir}/chunks`).filter((name) => name.endsWith('.js')).map((name) => `${dir}/chunks/${name}`)];
  for (const file of files) {
    const code = readFileSync(file, 'utf8');
    if (!code.startsWith(`${BANNER}\n`)) continue;
    const body = code.slice(BANNER.length + 1);
    if (/\brequire\b/.test(body)) continue;
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
    if (!map.mappings.startsWith(';')) continue;
    map.mappings = map.mappings.slice(1);
    writeFileSync(file, body);
    writeFileSync(`${file}.map`, JSON.stringify(map));
  }
}

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
  banner: { js: BANNER },
  plugins: [zodEnglishOnly, oneRunClosure],
});
stripUnusedBanners(`${dist}cli`);

// `--help` is the settings table rendered; written once here so that `vibe-agent --help` only reads a file.
const { helpText } = await import(`${dist}cli/help-text.js`);
writeFileSync(`${dist}cli/help.txt`, `${helpText()}\n`);
