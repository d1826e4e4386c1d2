import { resolve } from 'node:path';
import { DocsIndex } from '../../../knowledge/docs-index.js';
import { indexPath } from '../../../knowledge/knowledge-source.js';
import { formatBytes } from '../../../tools/coding/shared/text-file.js';
import type { CliArgs } from '../../args/cli-args.js';
import { loadConfig } from '../../settings/config.js';
import { EXIT } from '../../settings/exit-codes.js';
import { resolveSettings } from '../../setup/resolve-settings.js';
import { UsageError } from '../../settings/usage-error.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';

/** `vibe-agent index [--docs DIR]`: builds or updates the search_docs index, with progress on stderr. */
export async function indexCommand(args: CliArgs, _signal: AbortSignal, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  const workspace = resolve(args.cwd ?? process.cwd());
  const config = await loadConfig(workspace, env, (message) => safeStderr.write(`vibe-agent: warning: ${message}\n`));
  const sources = resolveSettings(args, env, config).values.knowledge;
  if (!sources.length) throw new UsageError('No knowledge folders: pass --docs DIR or set "knowledge": [{ "name", "path", "glob" }] in a config file.');
  const path = indexPath(sources, env);
  const tty = process.stderr.isTTY === true;
  let shown = -1;
  const index = await DocsIndex.open(sources, path, {
    onSkipped: (skipped, reason) => safeStderr.write(`vibe-agent: warning: ${skipped} skipped: ${reason}.\n`),
    onProgress: (done, total) => {
      const percent = Math.floor((done / total) * 100);
      if (!tty || percent === shown) return;
      shown = percent;
      const bar = '█'.repeat(Math.floor(percent / 5)).padEnd(20, '░');
      process.stderr.write(`\r${bar} ${percent}%  ${done}/${total} files`);
    },
  });
  if (tty && shown >= 0) process.stderr.write('\n');
  const r = index.report;
  const why = r.rebuilt === 'torn' ? ' (the stored index was torn: rebuilt)' : r.rebuilt === 'old-format' ? ' (an older index format: rebuilt)' : '';
  safeStdout.write(
    `Indexed ${plural(r.files, 'file')} (${plural(r.chunks, 'section')}, ${plural(r.shards, 'shard')}) from ${sources.map((s) => s.name).join(', ')} in ${r.ms} ms: ${r.read} read, ${r.dropped} dropped, ${plural(r.shardsWritten, 'shard')} written${r.shardsRepaired ? ` (${r.shardsRepaired} torn, rebuilt)` : ''}${why}.\n` +
      `${r.bytes !== undefined ? `Wrote ${formatBytes(r.bytes)} to ${path}` : `Up to date: ${path}`}\n`,
  );
  return EXIT.answered;
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}
