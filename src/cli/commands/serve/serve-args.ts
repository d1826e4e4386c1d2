import type { CommandInput } from '../../args/command-spec.js';
import { UsageError } from '../../settings/usage-error.js';

export interface ServeArgs {
  host: string;
  port: number;
  tokenFile?: string;
  allowOrigins: string[];
  maxSessions?: number;
  maxStreams?: number;
  /** Stop after this many seconds with no turn running and no stream open (background sessions' server). */
  idleExit?: number;
}

export function parseServeArgs({ flags }: CommandInput): { command: 'serve'; serve: ServeArgs } {
  const host = text(flags.host, '--host') ?? '127.0.0.1';
  const port = whole(flags.port, '--port', 0, 65535) ?? 4317;
  const tokenFile = text(flags['token-file'], '--token-file');
  const origins = flags['allow-origin'];
  const allowOrigins = (Array.isArray(origins) ? origins : typeof origins === 'string' ? [origins] : []).map(origin);
  const maxSessions = whole(flags['max-sessions'], '--max-sessions', 1, 100_000);
  const maxStreams = whole(flags['max-streams'], '--max-streams', 1, 100_000);
  const idleExit = whole(flags['idle-exit'], '--idle-exit', 1, 86_400);
  return {
    command: 'serve',
    serve: { host, port, allowOrigins, ...(tokenFile ? { tokenFile } : {}), ...(maxSessions ? { maxSessions } : {}), ...(maxStreams ? { maxStreams } : {}), ...(idleExit ? { idleExit } : {}) },
  };
}

function text(value: unknown, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new UsageError(`${flag} takes a value.`);
  return value;
}

function whole(value: unknown, flag: string, min: number, max: number): number | undefined {
  const given = text(value, flag);
  if (given === undefined) return undefined;
  if (!/^\d+$/.test(given) || Number(given) < min || Number(given) > max) throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, not "${given}".`);
  return Number(given);
}

/** An origin as browsers send it: scheme, host and port, nothing after. */
function origin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--allow-origin takes an origin such as https://app.example, not "${value}".`);
  }
  if (url.origin === 'null' || url.origin !== value.replace(/\/$/, '')) throw new UsageError(`--allow-origin takes an origin (scheme://host[:port], nothing after), not "${value}"; did you mean ${url.origin}?`);
  return url.origin;
}
