// The file tools on a 100,000-line (2.9 MB) source file: a full read (first page), an exact edit,
// a tolerant edit (indentation), and a miss that searches the closest region. Each through the
// registry, as the loop calls them, in a fresh temp workspace; median of 5.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileTools, ToolRegistry } from '../dist/index.js';

const LINES = 100_000;

function source() {
  const lines = [];
  for (let i = 0; i < LINES; i++) lines.push(i % 4 === 3 ? '}' : i % 4 === 0 ? `function step${i}(input) {` : `    const value${i} = input * ${i} + offset;`);
  return lines.join('\n') + '\n';
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export default async function fileToolsBench() {
  const workspace = await mkdtemp(join(tmpdir(), 'vibe-bench-files-'));
  const text = source();
  const registry = new ToolRegistry(createFileTools());
  const invoke = (name, args) => registry.invoke({ id: 'b', name, arguments: JSON.stringify(args) }, { workspace });
  const cases = [
    { name: 'read_file (first page)', target: 100, args: () => ['read_file', { path: 'big.ts' }] },
    { name: 'edit_file exact', target: 150, args: () => ['edit_file', { path: 'big.ts', old_string: '    const value50001 = input * 50001 + offset;', new_string: '    const value50001 = input * 2;' }] },
    { name: 'edit_file indentation tolerance', target: 300, args: () => ['edit_file', { path: 'big.ts', old_string: 'const value70001 = input * 70001 + offset;\nconst value70002 = input * 70002 + offset;', new_string: 'const value70001 = 1;\nconst value70002 = 2;' }] },
    { name: 'edit_file miss + closest region', target: 500, args: () => ['edit_file', { path: 'big.ts', old_string: '    const value90001 = input * 90001 - offset;\n    const value90002 = input * 90002 - offset;', new_string: 'x' }] },
  ];
  const rows = [];
  try {
    for (const c of cases) {
      const times = [];
      let status = '';
      for (let i = 0; i < 5; i++) {
        await writeFile(join(workspace, 'big.ts'), text);
        const started = performance.now();
        const result = await invoke(...c.args());
        times.push(performance.now() - started);
        status = result.status;
      }
      const ms = median(times);
      rows.push({ case: c.name, status, 'median ms': ms.toFixed(1), target: `< ${c.target}`, result: ms < c.target ? 'PASS' : 'MISS' });
    }
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
  console.log(`\nFile tools on a ${LINES.toLocaleString('en-US')}-line file of ${(text.length / 2 ** 20).toFixed(1)} MB (median of 5)`);
  console.table(rows);
}
