import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { canonicalJson } from '../contracts/canonical-json.js';
import { userDataDir, workspaceKey } from '../session/paths.js';

interface Decision {
  fingerprint: string;
  approved: boolean;
  at: string;
}

/**
 * The user's answers about a workspace's project servers (and hooks), kept under the data dir
 * per workspace, never in the repository. An answer holds for the exact configuration it was
 * given for: a changed command or URL is asked about again.
 */
export class TrustStore {
  private readonly path: string;

  constructor(workspace: string, env: NodeJS.ProcessEnv = process.env) {
    this.path = join(userDataDir(env), 'trust', `${workspaceKey(workspace)}.json`);
  }

  /** True or false when asked before about this very configuration; undefined otherwise. */
  decision(key: string, value: unknown): boolean | undefined {
    const found = this.read()[key];
    return found && found.fingerprint === fingerprint(value) ? found.approved : undefined;
  }

  record(key: string, value: unknown, approved: boolean): void {
    const decisions = this.read();
    decisions[key] = { fingerprint: fingerprint(value), approved, at: new Date().toISOString() };
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(decisions, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.path);
  }

  private read(): Record<string, Decision> {
    try {
      return JSON.parse(readFileSync(this.path, 'utf8')) as Record<string, Decision>;
    } catch {
      return {};
    }
  }
}

function fingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
