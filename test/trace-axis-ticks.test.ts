import { describe, expect, it } from 'vitest';
import { dollarTicks } from '../src/trace/axis-ticks.js';
import { PAGE_SCRIPT } from '../src/trace/page-script.js';

describe('the trace chart cost axis', () => {
  it('labels ticks a fraction of a cent apart with as many decimals as the step needs, each one distinct', () => {
    const ticks = dollarTicks(undefined, [0.001, 0.0012, 0.0014, 0.0016], 3, 0, 0.0002);
    expect(ticks).toEqual(['$0.0010', '$0.0012', '$0.0014', '$0.0016']);
    expect(dollarTicks(undefined, [0, 0.5, 1, null], 3, 0, 0.5)).toEqual(['$0.0', '$0.5', '$1.0', '']);
    expect(dollarTicks(undefined, [0, 10, 20], 3, 0, 10)).toEqual(['$0', '$10', '$20']);
    expect(dollarTicks(undefined, [0.00001, 0.00002], 3, 0, 0.00001)).toEqual(['$0.00001', '$0.00002']);
  });

  it('is embedded in the page script, which still parses', () => {
    expect(PAGE_SCRIPT).toContain('values: dollarTicks');
    expect(() => new Function(PAGE_SCRIPT)).not.toThrow();
  });
});
