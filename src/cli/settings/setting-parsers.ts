import { basename, resolve } from 'node:path';
import type { KnowledgeSource } from '../../knowledge/knowledge-source.js';
import { UsageError } from './usage-error.js';

/** Turns a flag's or variable's text into a setting's value; `name` is what the user typed (`--max-turns`, `VIBE_IDLE_TIMEOUT`). */
export type ParseSetting<T> = (raw: string, name: string) => T;

export const text: ParseSetting<string> = (raw) => raw;

export function positiveInteger(raw: string, name: string): number {
  // Number() would take "" as 0 and "0x10" as 16.
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a whole number of at least 1, got "${raw}".`);
  return n;
}

/** A whole number, 0 allowed. */
export function wholeNumber(raw: string, name: string): number {
  if (/^\s*0+\s*$/.test(raw)) return 0;
  return positiveInteger(raw, name);
}

export function atLeast(min: number, what: (n: number) => string): ParseSetting<number> {
  return (raw, name) => {
    const n = positiveInteger(raw, name);
    if (n < min) throw new UsageError(what(n));
    return n;
  };
}

export const dollars: ParseSetting<number> = (raw, name) => {
  const usd = Number(raw.replace(/^\$/, ''));
  if (!Number.isFinite(usd) || usd <= 0) throw new UsageError(`${name} must be a positive amount of US dollars, e.g. 0.50, got "${raw}".`);
  return usd;
};

export const temperature: ParseSetting<number> = (raw, name) => {
  const t = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(t) || t < 0 || t > 2) throw new UsageError(`${name} must be a number from 0 to 2, got "${raw}".`);
  return t;
};

/** Seconds in, milliseconds out. */
export const secondsAsMs: ParseSetting<number> = (raw, name) => {
  const seconds = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`${name} must be a number of seconds above 0, got "${raw}".`);
  return Math.round(seconds * 1000);
};

export function oneOf<T extends string>(choices: readonly T[]): ParseSetting<T> {
  return (raw, name) => {
    if (!(choices as readonly string[]).includes(raw)) throw new UsageError(`${name} must be one of ${choices.join(', ')}, got "${raw}".`);
    return raw as T;
  };
}

export const commaList: ParseSetting<string[]> = (raw) =>
  raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/** A directory given on the command line is relative to where the command runs. */
export const directory: ParseSetting<string> = (raw) => resolve(raw);

/** --docs DIR: a knowledge folder named after itself, with the default glob. */
export const docsFolder: ParseSetting<KnowledgeSource> = (raw) => ({ name: basename(resolve(raw)), path: resolve(raw) });

/** An OpenTelemetry-style switch: "true" (any case) is on, anything else off. */
export const trueOrFalse: ParseSetting<boolean> = (raw) => raw.trim().toLowerCase() === 'true';
