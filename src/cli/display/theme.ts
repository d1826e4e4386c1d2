/**
 * The one palette of every renderer (one-shot text, the interactive UI, the demo, the approval
 * prompts); every function is the identity when colour is off (NO_COLOR, or not a terminal).
 */
export interface Theme {
  enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  italic(text: string): string;
  underline(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  blue(text: string): string;
  magenta(text: string): string;
  cyan(text: string): string;
  gray(text: string): string;
}

export function createTheme(enabled: boolean): Theme {
  const wrap = (open: number, close: number) => (text: string) => (enabled && text ? `\x1b[${open}m${text}\x1b[${close}m` : text);
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    italic: wrap(3, 23),
    underline: wrap(4, 24),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    blue: wrap(34, 39),
    magenta: wrap(35, 39),
    cyan: wrap(36, 39),
    gray: wrap(90, 39),
  };
}

/** Colour for this stream: off with NO_COLOR, on with FORCE_COLOR, else only on a terminal. */
export function colorEnabled(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}

/** What a piece of display text means; the palette decides how that looks. */
export type Tone = 'plain' | 'dim' | 'bold' | 'accent' | 'ok' | 'warning' | 'error';

// Which colour of the palette each tone is; plain text is left as it is.
const TONE_COLOURS: Record<Tone, 'dim' | 'bold' | 'cyan' | 'green' | 'yellow' | 'red' | undefined> = {
  plain: undefined,
  dim: 'dim',
  bold: 'bold',
  accent: 'cyan',
  ok: 'green',
  warning: 'yellow',
  error: 'red',
};

export function toned(theme: Theme, tone: Tone, text: string): string {
  const colour = TONE_COLOURS[tone];
  return colour ? theme[colour](text) : text;
}
