/**
 * The long-lived TypeScript checker, run as `node -e` (so it needs no file of ours on disk) with the
 * project's own typescript module and tsconfig as arguments. Each "check" line on stdin re-reads
 * what changed (by mtime) and asks a semantic-diagnostics builder program, which re-checks only the
 * files an edit can affect; the answer is tsc's `file(line,col): error TSn: message` lines, then an
 * end marker. The first check pays for the whole program; later ones reuse it. "check {json}"
 * checks with one file's text replaced ({"path", "text"}; text null: the file does not exist),
 * which is how the first edit's baseline is taken from the old text after the new one is written.
 */
export const TSC_SERVER_END = '\u0000vibe-agent-check-done';

export const TSC_SERVER_SCRIPT = `
const ts = require(process.argv[1]);
const path = require('node:path');
const fs = require('node:fs');
const cwd = process.cwd();
const configPath = path.resolve(cwd, process.argv[2]);
const cache = new Map();
let builder;
let overlay;
let overlays = 0;
const overlaid = (fileName) => overlay !== undefined && path.resolve(fileName) === overlay.path;
function sourceFile(host, fileName, languageVersion, onError) {
  if (overlaid(fileName)) {
    if (overlay.text === null) return undefined;
    const file = ts.createSourceFile(fileName, overlay.text, languageVersion);
    file.version = 'overlay-' + ++overlays;
    return file;
  }
  let mtime = -1;
  try { mtime = fs.statSync(fileName).mtimeMs; } catch {}
  const known = cache.get(fileName);
  if (known && known.mtime === mtime) return known.file;
  const file = host.getSourceFile(fileName, languageVersion, onError);
  if (file) file.version = String(mtime);
  cache.set(fileName, { mtime, file });
  return file;
}
function check() {
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, { noEmit: true, incremental: false, composite: false }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed) return [];
  const host = ts.createIncrementalCompilerHost(parsed.options, ts.sys);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError) => sourceFile({ getSourceFile: read }, fileName, languageVersion, onError);
  const exists = host.fileExists.bind(host);
  const readText = host.readFile.bind(host);
  host.fileExists = (fileName) => (overlaid(fileName) ? overlay.text !== null : exists(fileName));
  host.readFile = (fileName) => (overlaid(fileName) ? (overlay.text ?? undefined) : readText(fileName));
  const fileNames = overlay && overlay.text === null ? parsed.fileNames.filter((name) => !overlaid(name)) : parsed.fileNames;
  builder = ts.createSemanticDiagnosticsBuilderProgram(fileNames, parsed.options, host, builder, ts.getConfigFileParsingDiagnostics(parsed), parsed.projectReferences);
  return [...parsed.errors, ...builder.getOptionsDiagnostics(), ...builder.getGlobalDiagnostics(), ...builder.getSyntacticDiagnostics(), ...builder.getSemanticDiagnostics()];
}
function line(d) {
  const kind = d.category === ts.DiagnosticCategory.Error ? 'error' : d.category === ts.DiagnosticCategory.Warning ? 'warning' : undefined;
  if (!kind) return undefined;
  const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
  if (!d.file || d.start === undefined) return 'tsconfig.json(0,0): ' + kind + ' TS' + d.code + ': ' + message;
  const at = d.file.getLineAndCharacterOfPosition(d.start);
  return path.relative(cwd, d.file.fileName) + '(' + (at.line + 1) + ',' + (at.character + 1) + '): ' + kind + ' TS' + d.code + ': ' + message;
}
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let end;
  while ((end = pending.indexOf('\\n')) >= 0) {
    const request = pending.slice(0, end);
    pending = pending.slice(end + 1);
    overlay = request.startsWith('check {') ? JSON.parse(request.slice(6)) : undefined;
    if (overlay) overlay.path = path.resolve(overlay.path);
    let out = '';
    try { for (const d of check()) { const text = line(d); if (text) out += text + '\\n'; } }
    catch (error) { out += 'tsconfig.json(0,0): error TS0: checker failed: ' + String(error && error.message || error) + '\\n'; }
    process.stdout.write(out + ${JSON.stringify('\u0000vibe-agent-check-done')} + '\\n');
  }
});
process.stdin.on('end', () => process.exit(0));
`;
