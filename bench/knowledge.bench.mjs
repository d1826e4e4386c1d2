// search_docs on a generated corpus of 10,000 files / ~50 MB: a fresh build, the size on disk,
// opening an up-to-date index (each run's first search), an update after 10 changed files, query
// p50/p99, and hit@5 on questions whose answer sits in one known file among the noise.
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocsIndex } from '../dist/index.js';

const FILES = Number(process.env.BENCH_DOCS_FILES ?? 10_000);
const FILE_BYTES = 5_000;

function random(seed) {
  let state = seed >>> 0;
  return () => ((state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'tes', 'vin', 'dor', 'pel', 'su', 'gra', 'nek', 'tho', 'bel', 'cur', 'fen', 'zi'];
const COMMON = ['service', 'request', 'config', 'deploy', 'team', 'error', 'cache', 'user', 'build', 'test', 'release', 'data', 'queue', 'worker', 'token', 'review', 'policy'];

function vocabulary(next) {
  const words = new Set();
  while (words.size < 3000) words.add(Array.from({ length: 2 + Math.floor(next() * 2) }, () => SYLLABLES[Math.floor(next() * SYLLABLES.length)]).join(''));
  return [...words];
}

/** Questions (paraphrased, as a user asks) and the one file holding each answer. */
const FACTS = [
  ['Rotating signing keys', 'Signing keys are rotated every ninety days with the keyctl tool by the platform team.', 'how often do we rotate signing keys keyctl'],
  ['Canary rollout', 'A canary rollout sends five percent of traffic for fifteen minutes before promotion.', 'canary rollout traffic percentage'],
  ['Oncall escalation', 'Page the secondary oncall engineer after twenty minutes without acknowledgement.', 'when to page secondary oncall'],
  ['Refund window', 'Customers may request a refund within thirty days of purchase through the billing portal.', 'refund window days billing'],
  ['Database failover', 'Failover to the replica is automatic when the primary misses three heartbeats.', 'database failover replica heartbeats'],
  ['Feature flags', 'Feature flags live in the flagd service and are cleaned up after two releases.', 'where do feature flags live cleanup'],
  ['Log retention', 'Application logs are retained for fourteen days, audit logs for seven years.', 'how long are audit logs retained'],
  ['Backup schedule', 'Snapshots of the object store are taken nightly and copied to a second region.', 'nightly snapshot backup region'],
  ['Password policy', 'Service passwords need twenty characters and are stored only in the vault.', 'password length vault policy'],
  ['Rate limits', 'The public API allows six hundred requests per minute per token before throttling.', 'api rate limit requests per minute'],
  ['Incident review', 'Every severity one incident gets a blameless review within five working days.', 'blameless incident review severity'],
  ['Dependency upgrades', 'Renovate opens dependency upgrade pull requests every Monday morning.', 'dependency upgrades renovate monday'],
];

function document(next, words, i) {
  const pick = () => (next() < 0.3 ? COMMON[Math.floor(next() * COMMON.length)] : words[Math.floor(next() * words.length)]);
  const out = [`# ${pick()} ${pick()} ${i}`, ''];
  let size = 0;
  while (size < FILE_BYTES) {
    if (next() < 0.08) out.push('', `## ${pick()} ${pick()}`, '');
    const line = Array.from({ length: 8 + Math.floor(next() * 10) }, pick).join(' ') + '.';
    out.push(line);
    size += line.length + 1;
  }
  return out.join('\n') + '\n';
}

/** Bytes of every file under `dir` (the manifest and its shards). */
async function diskBytes(dir) {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  return total;
}

const ms = (t) => `${t.toFixed(0)} ms`;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export default async function main() {
  const root = await mkdtemp(join(tmpdir(), 'vibe-bench-knowledge-'));
  try {
    const next = random(7);
    const words = vocabulary(next);
    const docs = join(root, 'docs');
    const answers = new Map();
    let bytes = 0;
    for (let i = 0; i < FILES; i++) {
      const path = join(docs, `area${i % 50}`, `topic${Math.floor(i / 50) % 20}`, `page${i}.md`);
      await mkdir(join(docs, `area${i % 50}`, `topic${Math.floor(i / 50) % 20}`), { recursive: true });
      let text = document(next, words, i);
      const fact = FACTS[i / 797];
      if (Number.isInteger(i / 797) && fact) {
        text += `\n## ${fact[0]}\n\n${fact[1]}\n`;
        answers.set(fact[2], path);
      }
      bytes += Buffer.byteLength(text);
      await writeFile(path, text);
    }
    const sources = [{ name: 'docs', path: docs }];
    // BENCH_BASELINE=dir/with/dist: the same steps with an earlier build's DocsIndex, on the same corpus in the same run.
    const variants = [{ name: 'this build', DocsIndex }];
    if (process.env.BENCH_BASELINE) variants.unshift({ name: 'baseline', DocsIndex: (await import(join(process.env.BENCH_BASELINE, 'dist', 'index.js'))).DocsIndex });
    const results = [];
    for (const [v, variant] of variants.entries()) {
      const indexFile = join(root, `cache${v}`, 'index.json');
      let started = performance.now();
      const built = await variant.DocsIndex.open(sources, indexFile);
      const buildMs = performance.now() - started;
      const size = await diskBytes(join(root, `cache${v}`));
      started = performance.now();
      const reopened = await variant.DocsIndex.open(sources, indexFile);
      const reopenMs = performance.now() - started;
      started = performance.now();
      reopened.search('release deploy', 8);
      const firstQueryMs = performance.now() - started;
      results.push({ variant, indexFile, built, buildMs, size, reopenMs, firstQueryMs });
    }
    for (let i = 0; i < 10; i++) {
      const path = join(docs, `area${(i * 7) % 50}`, `topic0`, `page${(i * 7) % 50}.md`);
      await writeFile(path, document(next, words, i) + `\nchanged ${i}\n`);
    }
    const queries = Array.from({ length: 300 }, (_, q) => Array.from({ length: 2 + (q % 3) }, () => (next() < 0.5 ? COMMON[Math.floor(next() * COMMON.length)] : words[Math.floor(next() * words.length)])).join(' '));
    for (const result of results) {
      let started = performance.now();
      const updated = await result.variant.DocsIndex.open(sources, result.indexFile);
      result.updateMs = performance.now() - started;
      result.updated = updated;
      updated.search('warm up', 8);
      const times = [];
      for (const query of queries) {
        const t = performance.now();
        updated.search(query, 8);
        times.push(performance.now() - t);
      }
      result.times = times.sort((a, b) => a - b);
      result.hits = 0;
      for (const [question, path] of answers) if (updated.search(question, 5).some((hit) => hit.path === path)) result.hits++;
    }

    console.log(`\n## search_docs: ${FILES.toLocaleString('en-US')} files (load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)\n`);
    console.log(`corpus: ${FILES.toLocaleString('en-US')} Markdown files, ${(bytes / 1024 / 1024).toFixed(1)} MB, ${results[0].built.report.chunks.toLocaleString('en-US')} sections\n`);
    const ratio = (key, fmt) => results.length === 2 ? ` | ${(results[1][key] / results[0][key]).toFixed(2)}×` : '';
    const row = (label, key, fmt) => console.log(`| ${label} | ${results.map((r) => fmt(r)).join(' | ')}${ratio(key)} |`);
    console.log(`| measure | ${results.map((r) => r.variant.name).join(' | ')}${results.length === 2 ? ' | ratio' : ''} |\n|---|${results.map(() => '---|').join('')}${results.length === 2 ? '---|' : ''}`);
    row('fresh build', 'buildMs', (r) => ms(r.buildMs));
    row('index on disk', 'size', (r) => `${(r.size / 1024 / 1024).toFixed(1)} MB`);
    row('open an up-to-date index (freshness check)', 'reopenMs', (r) => ms(r.reopenMs));
    row('first query after opening (loads the index)', 'firstQueryMs', (r) => ms(r.firstQueryMs));
    row('update after 10 changed files', 'updateMs', (r) => `${ms(r.updateMs)} (${r.updated.report.read} read)`);
    for (const result of results) {
      result.p50 = percentile(result.times, 50);
      result.p99 = percentile(result.times, 99);
    }
    row('query p50, warm (300 queries, 2–4 terms)', 'p50', (r) => `${r.p50.toFixed(2)} ms`);
    row('query p99, warm', 'p99', (r) => `${r.p99.toFixed(2)} ms`);
    row(`hit@5 (${answers.size} questions with a known answer file)`, 'hits', (r) => `${r.hits}/${answers.size}`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) await main();
