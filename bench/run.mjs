// Runs every benchmark in bench/*.bench.mjs (in name order) and prints their tables.
import { readdirSync } from 'node:fs';

const only = process.argv[2];
const files = readdirSync(new URL('.', import.meta.url)).filter((f) => f.endsWith('.bench.mjs') && (!only || f.includes(only))).sort();
for (const file of files) {
  const mod = await import(new URL(file, import.meta.url));
  await mod.default();
}
