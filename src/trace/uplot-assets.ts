import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface ChartAssets {
  js: string;
  css: string;
}

/**
 * uPlot's browser build and stylesheet, read from the installed package (found by Node's own
 * resolution from this module, which works from tsc's output and from the CLI bundle's chunks).
 */
export function chartAssets(): ChartAssets {
  const require = createRequire(import.meta.url);
  return {
    js: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
    css: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
  };
}
