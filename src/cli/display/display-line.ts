import type { Tone } from './theme.js';

/** A piece of a display line and what it means; `paintLine` colours it with the palette. */
export interface Span {
  text: string;
  tone: Tone;
}

export type DisplayLine = Span[];
