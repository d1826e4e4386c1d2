import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** One import the ledger remembers: which Vibe session a source file's exact bytes became. */
export interface LedgerEntry {
  session: string;
  source: string;
  agent: string;
  importedAt: string;
}

/** `import-ledger.json` beside the workspace's sessions: sha256 of a source file's bytes → its import. */
export function ledgerPath(sessionsDir: string): string {
  return join(sessionsDir, 'import-ledger.json');
}

export function readLedger(path: string): Record<string, LedgerEntry> {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { imports?: Record<string, LedgerEntry> };
    return parsed.imports && typeof parsed.imports === 'object' ? parsed.imports : {};
  } catch {
    return {};
  }
}

/** Adds an import (written whole to a temporary file and renamed, so a crash leaves the old ledger or the new one). */
export function recordImport(path: string, digest: string, entry: LedgerEntry): void {
  const imports = { ...readLedger(path), [digest]: entry };
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ version: 1, imports }, null, 1)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}
