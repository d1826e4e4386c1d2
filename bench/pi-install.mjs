// pi (@mariozechner/pi-coding-agent), the third column of side-by-side.bench.mjs: installed once per
// pinned version into a cache under os.tmpdir() and reused by later runs. Never throws: when it cannot
// be installed or does not start (no network, a Node it does not support), the reason comes back so
// the bench can print it and go on without pi.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// 0.73.1: the newest on 2026-12-03; engines "node": ">=20.6.0". Its own dependencies float within ^0.73.1.
export const PI_VERSION = '0.73.1';
const PACKAGE = '@mariozechner/pi-coding-agent';

/** @returns {{ cli: string } | { skipped: string }} */
export function installPi() {
  if (process.env.BENCH_PI === '0') return { skipped: 'BENCH_PI=0' };
  const dir = join(tmpdir(), 'vibe-bench-pi', PI_VERSION);
  const cli = join(dir, 'node_modules', PACKAGE, 'dist', 'cli.js');
  if (!existsSync(join(dir, 'installed'))) {
    const failure = install(dir);
    if (failure) return { skipped: failure };
  }
  // A wrong engine or a broken install shows here rather than in the middle of the measurements.
  const probe = spawnSync(process.execPath, [cli, '--version'], { encoding: 'utf8', timeout: 120_000, env: offlineEnv(process.env) });
  if (probe.status !== 0) return { skipped: `pi ${PI_VERSION} does not start on Node ${process.version}: ${errorLine(probe.stderr || probe.error?.message)}` };
  return { cli };
}

/** pi's start-up network calls (update check, install ping) off. */
export function offlineEnv(env) {
  return { ...env, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' };
}

/** Installs into a scratch directory and renames it into place, so a failed or interrupted install is never reused. */
function install(dir) {
  const scratch = `${dir}.partial-${process.pid}`;
  mkdirSync(scratch, { recursive: true });
  process.stderr.write(`side-by-side: installing ${PACKAGE}@${PI_VERSION} into ${dir} (once)\n`);
  // No install scripts: pi's print mode runs without them (koffi's native build, protobufjs's postinstall, a no-op).
  const args = ['install', '--prefix', scratch, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', '--fetch-retries=1', `${PACKAGE}@${PI_VERSION}`];
  const result = spawnSync('npm', args, { encoding: 'utf8', timeout: 600_000 });
  if (result.status !== 0) {
    rmSync(scratch, { recursive: true, force: true });
    return `npm install ${PACKAGE}@${PI_VERSION} failed: ${errorLine(result.stderr || result.error?.message)}`;
  }
  writeFileSync(join(scratch, 'installed'), `${PI_VERSION}\n`);
  // Another bench run may have finished the same install meanwhile: keep the one in place.
  if (existsSync(join(dir, 'installed'))) rmSync(scratch, { recursive: true, force: true });
  else {
    rmSync(dir, { recursive: true, force: true });
    renameSync(scratch, dir);
  }
  return undefined;
}

function errorLine(text = '') {
  const lines = text.trim().split('\n').filter((line) => line && !line.includes('A complete log of this run'));
  return lines.find((line) => /error/i.test(line)) ?? lines.at(-1) ?? 'no output';
}
