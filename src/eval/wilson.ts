/** z for a two-sided 95% interval. */
const Z95 = 1.959964;

/**
 * The Wilson score interval for a pass rate: unlike p ± z·√(p(1−p)/n) it stays inside [0, 1] and
 * is honest for the small n of an eval (3 passes out of 3 is not "100% ± 0").
 */
export function wilsonInterval(passes: number, runs: number, z = Z95): [low: number, high: number] {
  if (runs === 0) return [0, 1];
  const p = passes / runs;
  const z2 = z * z;
  const centre = (p + z2 / (2 * runs)) / (1 + z2 / runs);
  const half = (z * Math.sqrt((p * (1 - p)) / runs + z2 / (4 * runs * runs))) / (1 + z2 / runs);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
