import { spawn } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chunkText } from '../src/knowledge/chunk-text.js';
import { DocsIndex } from '../src/knowledge/docs-index.js';
import { htmlToText } from '../src/knowledge/extract-text.js';
import { readIndexFile } from '../src/knowledge/index-file.js';
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
    writeFileSync(path, JSON.stringify({ format: 0, files: {}, nextId: 0, index: '' }));
    expect((await DocsIndex.open(sources, path)).report).toMatchObject({ rebuilt: 'old-format', read: 4 });
    expect(readIndexFile(path).ok).toBe(true);
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
    expect(readIndexFile(path).ok).toBe(true);
    expect(readdirSync(corpus.cache).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const after = await DocsIndex.open(sources, path);
    expect(after.report).toMatchObject({ files: 204, read: 0 });
    expect(after.search('page 117 widgets', 1)[0]).toMatchObject({ path: join(corpus.docs, 'many/page-117.md') });
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
