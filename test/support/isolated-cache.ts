/**
 * Vitest setup: every test process caches (the price cache, docs indexes) under a folder of its own,
 * never in the user's ~/.cache. A test that names XDG_CACHE_HOME itself still wins.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.XDG_CACHE_HOME ??= mkdtempSync(join(tmpdir(), 'vibe-test-cache-'));
