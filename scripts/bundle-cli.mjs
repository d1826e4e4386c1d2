// Bundles the CLI (after tsc) into dist/cli/main.js with code splitting: one file for what every
// run needs, lazy chunks for each provider SDK, the tokenizer, the TUI and the rest, so a run opens
// about 20 files instead of about 390. The library (dist/index.js) stays tsc's output, unbundled.
import { build } from 'esbuild';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const BANNER = "import { createRequire as __vibeCreateRequire } from 'node:module'; const require = __vibeCreateRequire(import.meta.url);";

// Our code imports `{ z } from 'zod'`, a namespace that keeps all of zod in the bundle (its chunk is
// half of what a run compiles before its first request). In the bundle, our files get a `z` with only
// the members the tsc output calls (`z.object`, …; types are erased), which esbuild can tree-shake
// down to (~213 KB instead of ~390 KB). A member not in zod fails the build. Packages importing zod
// themselves (the MCP SDK) get the real module, the same files.
const ZOD_MEMBERS = (() => {
  const members = new Set();
  for (const entry of readdirSync(dist, { recursive: true })) {
    if (!entry.endsWith('.js') || entry.startsWith('cli/chunks/') || entry === 'cli/main.js') continue;
    const code = readFileSync(join(dist, entry), 'utf8');
    // Tool modules take zod as an argument (`parameters: (z) => z.object(…)`) and import only its types.
    if (!/from ['"]zod['"]/.test(code) && !/\bdefineTool\(/.test(code)) continue;
    for (const [, member] of code.matchAll(/\bz\.([A-Za-z_$][\w$]*)/g)) members.add(member);
  }
  return [...members].sort();
})();
const zodUsedOnly = {
  name: 'zod-used-only',
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, (args) => (args.importer.startsWith(dist) ? { path: 'zod', namespace: 'zod-used' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'zod-used' }, () => ({
      contents: `import { ${ZOD_MEMBERS.map((name) => `${name} as z_${name}`).join(', ')} } from 'zod/v4';\nexport const z = { ${ZOD_MEMBERS.map((name) => `${name}: z_${name}`).join(', ')} };\n`,
      loader: 'js',
      resolveDir: dist,
    }));
  },
};

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

// The openai client builds every API resource in its constructor (assistants, vector stores, realtime,
// responses, …: ~110 KB of the SDK's 258 KB chunk, compiled before a run's first request); the CLI
// calls `chat.completions`, and `responses` only on the Responses wire, whose provider imports that
// resource lazily and builds it on the client itself. In the bundle the client keeps `chat` alone. The rewrite counts
// what it removes and fails the build when the SDK's shape changes (the CLI tests drive the result;
// test/start-up-load.test.ts checks which resources a run loads).
const openaiChatOnly = {
  name: 'openai-chat-only',
  setup(build) {
    build.onLoad({ filter: /\/node_modules\/openai\/client\.mjs$/ }, (args) => {
      let code = readFileSync(args.path, 'utf8');
      const dropped = new Set();
      code = code.replace(/^import \{([^}]*)\} from "\.\/resources\/(?!chat\/)[^"]+";\n/gm, (_, names) => {
        for (const name of names.split(',')) if (name.trim()) dropped.add(name.trim().split(/\s+as\s+/).pop());
        return '';
      });
      const whole = 'import * as API from "./resources/index.mjs";';
      const fields = [...code.matchAll(/^ *this\.\w+ = new API\.(\w+)\(this\);$/gm)].length;
      if (!code.includes(whole) || dropped.size < 15 || fields < 15) throw new Error(`openai-chat-only: the openai client no longer looks as expected (${dropped.size} resource imports, ${fields} resources built); update the plugin.`);
      code = code.replace(whole, 'const API = { Chat };');
      code = code.replace(/^ *this\.\w+ = new API\.(\w+)\(this\);\n/gm, (line, name) => (name === 'Chat' ? line : ''));
      code = code.replace(/^OpenAI\.\w+ = (\w+);\n/gm, (line, name) => (dropped.has(name) ? '' : line));
      return { contents: code, loader: 'js' };
    });
  },
};

// esbuild puts modules in one chunk when the same entry points (every lazy import() is one) reach
// them. The commands, tool families and providers each share a different part of what a one-shot
// run loads, which cut that into ~65 small chunks, and a run paid Node's resolve and load for each
// file (~40 ms of the start on 2 cores). Every lazily imported module of ours (but cli.js, which
// --help and usage errors load alone, and the listing commands below) also importing run-command
// makes the run's static closure one entry-set again: a few chunks. The library, dist/index.js, is
// not bundled and keeps its imports.
const RUN_COMMAND = `${dist}cli/commands/run/run-command.js`;
// The quick listing commands stay light (they would load the run's closure for ~35 ms more); the few
// chunks they split off cost a run nothing measurable (bench/README.md).
const LISTING_COMMANDS = ['sessions/sessions-command', 'memory/memory-command', 'skills/skills-command'].map((name) => `${dist}cli/commands/${name}.js`);
const KEEP_ALONE = new Set([RUN_COMMAND, `${dist}cli/cli.js`, `${dist}cli/main.unbundled.js`, ...LISTING_COMMANDS]);
function lazilyImported(dir) {
  const targets = new Set();
  for (const entry of readdirSync(dir, { recursive: true })) {
    // The bundle of an earlier run of this script is not tsc's output (and its chunks are gone by now).
    if (!entry.endsWith('.js') || entry.startsWith('cli/chunks/') || entry === 'cli/main.js') continue;
    const file = join(dir, entry);
    for (const [, target] of readFileSync(file, 'utf8').matchAll(/\bimport\((?:'|")(\.{1,2}\/[^'"]+\.js)(?:'|")\)/g)) targets.add(join(dirname(file), target));
  }
  return targets;
}
// What a saved run adds (cli/prompt/session-run.js: the session store, request records, checkpoints) is one
// lazy import of run-command's. The commands that use any of it (interactive, replay, rewind, ACP)
// import it whole as well, so esbuild keeps it in one chunk instead of ~9, split by which command
// shares which file (each a resolve and a load before a saved run's first request).
const SESSION_RUN = `${dist}cli/prompt/session-run.js`;
function staticClosure(file, closure = new Set()) {
  if (closure.has(file)) return closure;
  closure.add(file);
  for (const [, target] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+\.js)['"]/gm)) staticClosure(join(dirname(file), target), closure);
  return closure;
}
const oneRunClosure = {
  name: 'one-run-closure',
  setup(build) {
    const targets = [...lazilyImported(dist)].filter((file) => !KEEP_ALONE.has(file));
    const everyRun = staticClosure(RUN_COMMAND);
    const savedRun = [...staticClosure(SESSION_RUN)].filter((file) => !everyRun.has(file));
    const usesSavedRun = new Set(
      targets.filter((file) => {
        if (file === SESSION_RUN) return false;
        const closure = staticClosure(file);
        return savedRun.some((module) => closure.has(module));
      }),
    );
    const importOf = (from, file) => `import ${JSON.stringify(relative(dirname(from), file).replace(/^(?!\.)/, './'))};\n`;
    build.onLoad({ filter: /\.js$/ }, (args) => {
      if (!targets.includes(args.path)) return undefined;
      const code = readFileSync(args.path, 'utf8');
      return { contents: `${code}\n${importOf(args.path, RUN_COMMAND)}${usesSavedRun.has(args.path) ? importOf(args.path, SESSION_RUN) : ''}`, loader: 'js' };
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

// The unbundled entry stays, renamed, as the bundle's input (and for stack traces of tsc output).
// Run twice without tsc in between, main.js is the bundle already: keep the tsc output it came from.
if (!readFileSync(`${dist}cli/main.js`, 'utf8').includes('__vibeCreateRequire')) renameSync(`${dist}cli/main.js`, `${dist}cli/main.unbundled.js`);
rmSync(`${dist}cli/chunks`, { recursive: true, force: true });
const bundled = await build({
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
  plugins: [zodEnglishOnly, zodUsedOnly, openaiChatOnly, oneRunClosure],
  // BUNDLE_META=file writes esbuild's metafile (what each chunk holds, byte by byte) for analysis.
  metafile: Boolean(process.env.BUNDLE_META),
});
if (process.env.BUNDLE_META) writeFileSync(process.env.BUNDLE_META, JSON.stringify(bundled.metafile));
stripUnusedBanners(`${dist}cli`);

// `--help` is the settings table rendered; written once here so that `vibe-agent --help` only reads a file.
const { helpText } = await import(`${dist}cli/help-text.js`);
writeFileSync(`${dist}cli/help.txt`, `${helpText()}\n`);
