import type { z } from 'zod';

export type Zod = typeof z;

let zod: Zod | undefined;

/**
 * zod, imported at its first need. The built-in tools write their schemas as `(z) => z.object(…)`
 * so that loading a tool's code does not load zod (~20 ms on the CLI's first tool round): their
 * valid calls pass a check compiled at build time and never need it.
 */
export async function loadZod(): Promise<Zod> {
  return (zod ??= (await import('zod')).z);
}

/** zod when something has loaded it (or handed it over: the library's entry does), else undefined. */
export function loadedZod(): Zod | undefined {
  return zod;
}

/** Hands over zod already imported, so that tools built from it can be read synchronously. */
export function provideZod(namespace: Zod): void {
  zod ??= namespace;
}
