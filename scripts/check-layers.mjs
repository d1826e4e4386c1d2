#!/usr/bin/env node
// Fails when src/ has an import cycle, between files or between modules (a module is a folder).
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
  const files = importGraph();
  const problems = [
    ...findCycles(files).map((c) => `files: ${c.join(' ⇄ ')}`),
    ...findCycles(moduleGraph(files)).map((c) => `modules: ${c.join(' ⇄ ')}`),
  ];
  if (problems.length > 0) {
    console.error(`import cycles in src/:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`no import cycles: ${files.size} files`);
}
