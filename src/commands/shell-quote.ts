/**
 * One argument as a single POSIX shell word: single-quoted, each `'` written as `'\''`. Nothing
 * inside single quotes is special to sh or bash, so the shell reads back exactly `text`. Empty
 * stays empty, as in Gemini CLI (`grep -r {{args}} .` with no arguments is `grep -r  .`).
 */
export function shellQuote(text: string): string {
  if (text === '') return '';
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
