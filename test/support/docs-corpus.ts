/** A small documentation corpus with known answers, in a temp dir. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface DocsCorpus {
  root: string;
  docs: string;
  cache: string;
  write(path: string, text: string): void;
  cleanup(): void;
}

export function docsCorpus(): DocsCorpus {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'vibe-docs-')));
  const docs = join(root, 'docs');
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(docs, path)), { recursive: true });
    writeFileSync(join(docs, path), text);
  };
  write(
    'guide.md',
    '# Guide\n\nWelcome to the payments service.\n\n## Deploying\n\nRun `make deploy` from a clean checkout.\nCanary rollout takes fifteen minutes.\n\n## Rotating keys\n\nSigning keys rotate every ninety days with the keyctl tool.\n',
  );
  write(
    'api/reference.html',
    '<html><head><style>body { color: red }</style></head><body>\n<h1>API reference</h1>\n<p>All endpoints need a bearer token.</p>\n<h2>Refunds</h2>\n<p>POST /refunds reverses a charge &amp; notifies the customer.</p>\n</body></html>\n',
  );
  write('src/retry.ts', 'export function backoffDelay(attempt: number): number {\n  // exponential backoff with jitter\n  return Math.min(30_000, 2 ** attempt * 100) * Math.random();\n}\n');
  write('notes.txt', 'Oncall handbook: page the secondary after twenty minutes without acknowledgement.\n');
  write('.env', 'SECRET_TOKEN=do-not-index\n');
  write('image.png', 'not matched by the glob\n');
  return { root, docs, cache: join(root, 'cache'), write, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
