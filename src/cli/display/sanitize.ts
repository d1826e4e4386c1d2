/**
 * Text from outside (model answers, tool output, file names, error messages) reaches the
 * terminal only through here. Colour (SGR) sequences are kept; every other escape sequence
 * (cursor moves, screen clears, window titles, OSC/DCS strings) and every control character is
 * removed, and tabs become spaces, so what is written is exactly as wide as it is measured.
 */

// CSI with its parameters; OSC, DCS, SOS, PM and APC strings up to their terminator (or the end
// of the line when cut off); any other ESC with its intermediates and final byte.
const SEQUENCE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -/]*[0-~]?/g;
const SGR = /^\x1b\[[0-9;:]*m$/;
// Then C0 controls, DEL and the C1 range, which some terminals obey as 8-bit controls.
const SEQUENCE_OR_CONTROL = new RegExp(`${SEQUENCE.source}|[\\x00-\\x1f\\x7f-\\x9f]`, 'g');
const ANY_CONTROL = /[\x00-\x1f\x7f-\x9f]/;

export const TAB = '    ';

/** One line made safe to write: colours stay (unless `colour` is false), everything that could move the cursor goes. */
export function sanitizeLine(line: string, colour = true): string {
  if (!ANY_CONTROL.test(line)) return line;
  return line.replace(SEQUENCE_OR_CONTROL, (match) => (match === '\t' ? TAB : colour && SGR.test(match) ? match : ''));
}

/** Typed or pasted input: no escape sequences or control characters but newlines and tabs. */
export function sanitizeInput(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(SEQUENCE, '').replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '');
}
