/**
 * Keeps the head and the tail of a long text and says what was cut, so the model sees both
 * the start (headers, first errors) and the end (summaries, exit status).
 */
export function capOutput(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const headLength = Math.floor(maxChars * 0.6);
  const tailLength = maxChars - headLength;
  const cut = text.length - headLength - tailLength;
  const omittedLines = countLines(text.slice(headLength, text.length - tailLength));
  return (
    text.slice(0, headLength) +
    `\n[… ${cut} characters (${omittedLines} line${omittedLines === 1 ? '' : 's'}) omitted of ${text.length} …]\n` +
    text.slice(text.length - tailLength)
  );
}

function countLines(text: string): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}
