import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chunkText } from '../src/knowledge/chunk-text.js';
import { DocsIndex } from '../src/knowledge/docs-index.js';
import { htmlToText } from '../src/knowledge/extract-text.js';
import { readManifest, shardPath, shardsDir } from '../src/knowledge/index-file.js';
import { MAX_SHARD_FILES, planShards } from '../src/knowledge/shard-plan.js';
import { createSearchDocsTool } from '../src/knowledge/search-docs-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { docsCorpus, type DocsCorpus } from './support/docs-corpus.js';
import { runScenario } from './support/harness.js';

let corpus: DocsCorpus;
afterEach(() => corpus?.cleanup());

function setup() {
  corpus = docsCorpus();
  const sources = [{ name: 'docs', path: corpus.docs }];
  return { sources, path: join(corpus.cache, 'index.json') };
}

describe('chunking and text extraction', () => {
  it('cuts Markdown at headings (not inside code fences) and keeps HTML line numbers', () => {
    const chunks = chunkText('# A\ntext\n```\n# not a heading\n```\n## B\nmore\n', true);
    expect(chunks.map((c) => [c.title, c.line, c.endLine])).toEqual([
      ['A', 1, 5],
      ['B', 6, 8],
    ]);
    expect(htmlToText('<h2>T</h2>\n<script>\nx()\n</script><p>a &amp; b</p>')).toBe('## T\n\n\na & b');
  });
});

describe('the docs index', () => {
  it('finds the expected sections with path:line, in Markdown, HTML, code and text, and never indexes secrets', async () => {
    const { sources, path } = setup();
    const index = await DocsIndex.open(sources, path);
    expect(index.report).toMatchObject({ files: 4, read: 4, dropped: 0, rebuilt: 'missing' });
    const top = (query: string) => index.search(query, 5)[0];
    expect(top('rotate signing keys')).toMatchObject({ path: join(corpus.docs, 'guide.md'), line: 10, title: 'Rotating keys' });
    expect(top('refund a charge')).toMatchObject({ path: join(corpus.docs, 'api/reference.html'), line: 4, title: 'Refunds' });
    expect(top('exponential backoff jitter')).toMatchObject({ path: join(corpus.docs, 'src/retry.ts'), line: 1 });
    expect(top('oncall secondary page')).toMatchObject({ path: join(corpus.docs, 'notes.txt') });
    expect(index.search('SECRET_TOKEN do-not-index', 5).map((hit) => hit.path)).not.toContain(join(corpus.docs, '.env'));
  });

  it('updates incrementally: only changed files are read, deleted ones dropped, an unchanged index not rewritten', async () => {
    const { sources, path } = setup();
    await DocsIndex.open(sources, path);
    const again = await DocsIndex.open(sources, path);
    expect(again.report).toMatchObject({ read: 0, dropped: 0 });
    expect(again.report.bytes).toBeUndefined();
    corpus.write('notes.txt', 'Oncall handbook, revised: escalate to the incident commander.\n');
    rmSync(join(corpus.docs, 'src/retry.ts'));
    const updated = await DocsIndex.open(sources, path);
    expect(updated.report).toMatchObject({ files: 3, read: 1, dropped: 1 });
    expect(updated.search('incident commander', 5)[0]).toMatchObject({ path: join(corpus.docs, 'notes.txt') });
    expect(updated.search('exponential backoff jitter', 5)).toEqual([]);
  });

  it('rebuilds cleanly from a torn index file or one of another format', async () => {
    const { sources, path } = setup();
    await DocsIndex.open(sources, path);
    writeFileSync(path, '{"format":1,"files":{"x"');
    const torn = await DocsIndex.open(sources, path);
    expect(torn.report).toMatchObject({ rebuilt: 'torn', read: 4 });
    expect(torn.search('canary rollout', 5)[0]).toMatchObject({ title: 'Deploying' });
    writeFileSync(path, JSON.stringify({ format: 1, files: {}, nextId: 0, index: '' }));
    expect((await DocsIndex.open(sources, path)).report).toMatchObject({ rebuilt: 'old-format', read: 4 });
    expect(readManifest(path).ok).toBe(true);
  });

  it('stays whole when two processes build it at once (the last rename wins)', async () => {
    const { sources, path } = setup();
    for (let i = 0; i < 200; i++) corpus.write(`many/page-${i}.md`, `# Page ${i}\n\nTopic number ${i} about widgets.\n`);
    const module = join(import.meta.dirname, '..', 'dist', 'knowledge', 'docs-index.js');
    const script = `const { DocsIndex } = await import(${JSON.stringify(module)}); const i = await DocsIndex.open(${JSON.stringify(sources)}, ${JSON.stringify(path)}); console.log(i.report.files);`;
    const build = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        child.on('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(err))));
      });
    expect(await Promise.all([build(), build()])).toEqual(['204', '204']);
    expect(readManifest(path).ok).toBe(true);
    expect(readdirSync(corpus.cache).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const after = await DocsIndex.open(sources, path);
    expect(after.report).toMatchObject({ files: 204, read: 0 });
    expect(after.search('page 117 widgets', 1)[0]).toMatchObject({ path: join(corpus.docs, 'many/page-117.md') });
  });
});

describe('the sharded index', () => {
  /** The shard file of the shard holding `file`, per the manifest. */
  function shardFileOf(path: string, file: string): string {
    const loaded = readManifest(path);
    if (!loaded.ok) throw new Error(`no manifest: ${loaded.reason}`);
    const entry = Object.values(loaded.manifest.shards).find((shard) => file in shard.files);
    if (!entry) throw new Error(`${file} is in no shard`);
    return shardPath(path, entry.file);
  }
  const shardFiles = (path: string) => readdirSync(shardsDir(path)).filter((name) => name.endsWith('.json'));

  it('keeps one shard per top-level folder, and an update rewrites only the changed shard (mtimes)', async () => {
    const { sources, path } = setup();
    const first = await DocsIndex.open(sources, path);
    expect(first.report).toMatchObject({ shards: 3, shardsWritten: 3 });
    expect(shardFiles(path)).toHaveLength(3);
    const old = new Date('2001-01-01T00:00:00Z');
    for (const name of shardFiles(path)) utimesSync(join(shardsDir(path), name), old, old);
    const unchanged = await DocsIndex.open(sources, path);
    expect(unchanged.report).toMatchObject({ read: 0, shardsWritten: 0 });
    expect(unchanged.report.bytes).toBeUndefined();

    corpus.write('api/reference.html', '<h1>API reference</h1>\n<h2>Webhooks</h2>\n<p>Webhooks retry with a signed payload.</p>\n');
    const updated = await DocsIndex.open(sources, path);
    expect(updated.report).toMatchObject({ read: 1, dropped: 0, shardsWritten: 1 });
    const apiShard = shardFileOf(path, join(corpus.docs, 'api/reference.html'));
    for (const name of shardFiles(path)) {
      const rewritten = statSync(join(shardsDir(path), name)).mtimeMs > old.getTime();
      expect([name, rewritten]).toEqual([name, join(shardsDir(path), name) === apiShard]);
    }
    expect(updated.search('webhooks signed payload', 5)[0]).toMatchObject({ path: join(corpus.docs, 'api/reference.html'), title: 'Webhooks' });
    // Hits from the other shards still come back, merged by score.
    expect(updated.search('rotate signing keys', 5)[0]).toMatchObject({ path: join(corpus.docs, 'guide.md'), title: 'Rotating keys' });
  });

  it('rebuilds a torn shard (and only it), found by its size at open', async () => {
    const { sources, path } = setup();
    await DocsIndex.open(sources, path);
    const torn = shardFileOf(path, join(corpus.docs, 'src/retry.ts'));
    truncateSync(torn, 20);
    const reopened = await DocsIndex.open(sources, path);
    expect(reopened.report).toMatchObject({ read: 1, shardsRepaired: 1, shardsWritten: 1 });
    expect(reopened.report.rebuilt).toBeUndefined();
    expect(reopened.search('exponential backoff jitter', 5)[0]).toMatchObject({ path: join(corpus.docs, 'src/retry.ts') });
    expect((await DocsIndex.open(sources, path)).report).toMatchObject({ read: 0, shardsWritten: 0 });
  });

  it('rebuilds at query time a shard overwritten since the manifest was written (another builder, same size)', async () => {
    const { sources, path } = setup();
    await DocsIndex.open(sources, path);
    const file = shardFileOf(path, join(corpus.docs, 'guide.md'));
    const text = (await import('node:fs')).readFileSync(file, 'utf8');
    writeFileSync(file, text.replace(/"stamp":"([0-9a-f]+)"/, (_, stamp: string) => `"stamp":"${'0'.repeat(stamp.length)}"`));
    const reopened = await DocsIndex.open(sources, path);
    expect(reopened.report).toMatchObject({ read: 0, shardsWritten: 0 });
    expect(reopened.search('canary rollout', 5)[0]).toMatchObject({ path: join(corpus.docs, 'guide.md'), title: 'Deploying' });
    expect(reopened.report.shardsRepaired).toBe(1);
    expect((await DocsIndex.open(sources, path)).search('canary rollout', 5)[0]).toMatchObject({ title: 'Deploying' });
  });

  it('drops the shard of a deleted folder: its file removed, its files counted as dropped', async () => {
    const { sources, path } = setup();
    await DocsIndex.open(sources, path);
    const srcShard = shardFileOf(path, join(corpus.docs, 'src/retry.ts'));
    rmSync(join(corpus.docs, 'src'), { recursive: true });
    const after = await DocsIndex.open(sources, path);
    expect(after.report).toMatchObject({ files: 3, read: 0, dropped: 1, shards: 2, shardsWritten: 0 });
    expect(existsSync(srcShard)).toBe(false);
    expect(shardFiles(path)).toHaveLength(2);
    expect(after.search('exponential backoff jitter', 5)).toEqual([]);
  });

  it('splits a large folder into hash buckets that stay put as files are added', () => {
    const files = (n: number) => Array.from({ length: n }, (_, i) => ({ path: `/d/big/f${i}.md`, size: 1, mtimeMs: 1, folder: '0:big', root: '/d' }));
    const small = planShards(files(MAX_SHARD_FILES));
    expect([...small.keys()]).toEqual(['0:big']);
    const big = planShards(files(MAX_SHARD_FILES * 3));
    expect(big.size).toBe(4);
    expect([...big.values()].reduce((sum, list) => sum + list.length, 0)).toBe(MAX_SHARD_FILES * 3);
    const grown = planShards(files(MAX_SHARD_FILES * 3 + 10));
    const keyOf = (plan: ReturnType<typeof planShards>, path: string) => [...plan].find(([, list]) => list.some((f) => f.path === path))![0];
    expect(keyOf(grown, '/d/big/f5.md')).toBe(keyOf(big, '/d/big/f5.md'));
  });
});

describe('search_docs in the agent loop', () => {
  it('returns capped results with path:line, score and an excerpt the model then quotes', async () => {
    const { sources, path } = setup();
    const tool = createSearchDocsTool({ sources, indexPath: path, workspace: corpus.root, maxResults: 3 });
    const { server, result } = await runScenario(
      [{ toolCalls: [{ name: 'search_docs', arguments: { query: 'how to deploy canary' } }] }, { text: 'Run make deploy.' }],
      { tools: new ToolRegistry([tool]), workspace: corpus.root },
    );
    expect(result.answer).toBe('Run make deploy.');
    const output = String(server.requests[1]!.messages.at(-1)!.content);
    expect(output).toMatch(/^\d results? for "how to deploy canary" \(\d+ sections in 4 files\):\n1\. docs\/guide\.md:\d+ {2}score \d+\.\d {2}§ Deploying\n {3}/);
    expect(output).toContain('docs/guide.md:7  score');
    expect(output).toContain('\n   Run `make deploy` from a clean checkout.');
    expect(output.split('\n').filter((line) => /^\d\. /.test(line)).length).toBeLessThanOrEqual(3);
  });
});
