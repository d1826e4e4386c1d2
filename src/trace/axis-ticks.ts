/**
 * The cost axis's tick labels: as many decimals as the step between ticks needs, so ticks 0.0012,
 * 0.0014, 0.0016 read as such (uPlot's default showed "0.001" for each). Self-contained, because
 * the trace page's script embeds its source.
 */
export function dollarTicks(_chart: unknown, splits: Array<number | null>, _axis: number, _space: number, step: number): string[] {
  const decimals = step > 0 ? Math.min(10, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9))) : 2;
  return splits.map((value) => (value === null ? '' : '$' + value.toFixed(decimals)));
}
