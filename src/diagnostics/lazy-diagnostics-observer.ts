import type { WriteObserver } from '../tools/coding/shared/observe-write.js';
import type { DiagnosticsOptions } from './diagnostics-observer.js';

/**
 * createDiagnosticsObserver, loaded at the first write it watches: the checkers, their parsers and
 * the line diff cost a run that edits nothing (most one-shot runs) nothing. Undefined when off.
 */
export function lazyDiagnosticsObserver(options: DiagnosticsOptions): WriteObserver | undefined {
  if (options.setting === 'off') return undefined;
  let observer: Promise<WriteObserver | undefined> | undefined;
  return async (absolute, context) => {
    observer ??= import('./diagnostics-observer.js').then((loaded) => loaded.createDiagnosticsObserver(options));
    return (await observer)?.(absolute, context);
  };
}
