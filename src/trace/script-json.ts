/**
 * JSON for a `<script type="application/json">` element: `<`, `>` and `&` written as `\u003c`
 * escapes (so no text in the data can close the element or open a comment), and U+2028/U+2029
 * too (line terminators some JavaScript parsers reject in strings). JSON.parse reads it back unchanged.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Code inlined in a `<script>` or `<style>` element, with any closing tag of it broken up. */
export function inlineCode(code: string, element: 'script' | 'style'): string {
  return code.replace(new RegExp(`</(${element})`, 'gi'), '<\\/$1');
}
