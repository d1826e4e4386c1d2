#!/usr/bin/env node
// Fails when src/ has an import cycle, between files or between modules (a module is a folder), or an
// upward import between the top-level folders: LAYERS lists them bottom first, and a folder may import
// only the folders before it (docs/architecture.md draws the same order). A folder missing from the
// list fails too, so a new one is placed on purpose.
// Type-only imports count too: a cycle in types is still a tangle a reader must hold in their head.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');

function listSources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listSources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const importPattern = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The top-level folders of src/, bottom first ("index" is src/index.ts, the library's entry). */
export const LAYERS = [
  'contracts',
  'side-model',
  'images',
  'session',
  'secrets',
  'workspace',
  'permissions',
  'tools',
  'providers',
  'core',
  'context',
  'memory',
  'skills',
  'commands',
  'mentions',
  'hooks',
  'mcp',
  'acp',
  'agents',
  'knowledge',
  'checkpoints',
  'diagnostics',
  'sandbox',
  'trust',
  'lsp',
  'telemetry',
  'trace',
  'eval',
  'doctor',
  'conversation',
  'replay',
  'background',
  'server',
  'client',
  'cli',
  'index',
];

const topOf = (file) => file.split(/[\\/]/)[0].replace(/\.ts$/, '');

/** Imports from a folder to one at or above it in `layers` (each once per pair of folders, with one file that does it). */
export function upwardImports(fileGraph, layers = LAYERS) {
  const problems = new Map();
  for (const [file, targets] of fileGraph) {
    const from = topOf(file);
    for (const target of targets) {
      const to = topOf(target);
      if (from === to) continue;
      const key = `${from} -> ${to}`;
      if (problems.has(key)) continue;
      if (!layers.includes(from)) problems.set(`${from} (not in LAYERS)`, file);
      else if (!layers.includes(to)) problems.set(`${to} (not in LAYERS)`, target);
      else if (layers.indexOf(to) > layers.indexOf(from)) problems.set(key, `${file} imports ${target}`);
    }
  }
  return [...problems].map(([pair, where]) => `${pair}: ${where}`);
}

export function importGraph(sourceRoot = root) {
  const graph = new Map();
  for (const file of listSources(sourceRoot)) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set();
    for (const match of text.matchAll(importPattern)) {
      const spec = match[1] ?? match[2];
      targets.add(relative(sourceRoot, resolve(dirname(file), spec.replace(/\.js$/, '.ts'))));
    }
    graph.set(relative(sourceRoot, file), targets);
  }
  return graph;
}

export function moduleGraph(fileGraph) {
  const graph = new Map();
  for (const [file, targets] of fileGraph) {
    const from = dirname(file);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const target of targets) if (dirname(target) !== from) graph.get(from).add(dirname(target));
  }
  return graph;
}

/** Strongly connected components with more than one member (or a self-loop): each is a cycle. */
export function findCycles(graph) {
  let index = 0;
  const stack = [];
  const info = new Map();
  const cycles = [];
  const visit = (node) => {
    info.set(node, { index, low: index, onStack: true });
    index += 1;
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!info.has(next)) {
        visit(next);
        info.get(node).low = Math.min(info.get(node).low, info.get(next).low);
      } else if (info.get(next).onStack) {
        info.get(node).low = Math.min(info.get(node).low, info.get(next).index);
      }
    }
    if (info.get(node).low === info.get(node).index) {
      const members = [];
      let member;
      do {
        member = stack.pop();
        info.get(member).onStack = false;
        members.push(member);
      } while (member !== node);
      if (members.length > 1) cycles.push(members.sort());
    }
  };
  for (const node of graph.keys()) if (!info.has(node)) visit(node);
  return cycles;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // An argument checks another tree (the test's copy of src/ with an upward import added on purpose).
  const files = importGraph(process.argv[2] ? resolve(process.argv[2]) : root);
  const problems = [
    ...findCycles(files).map((c) => `files: ${c.join(' ⇄ ')}`),
    ...findCycles(moduleGraph(files)).map((c) => `modules: ${c.join(' ⇄ ')}`),
    ...upwardImports(files).map((p) => `upward: ${p}`),
  ];
  if (problems.length > 0) {
    console.error(`import cycles or upward imports in src/:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`no import cycles, no upward imports: ${files.size} files in ${LAYERS.length} layers`);
}
