import { defineTool } from '../define-tool.js';
import { evaluate, ExpressionError, formatNumber } from './expression.js';

export const calculatorTool = defineTool({
  name: 'calculator',
  description: 'Evaluate an arithmetic expression exactly: + - * / % ^, parentheses, decimals, sqrt, abs, ln, log, exp, sin, cos, tan, floor, ceil, round, min, max, pi, e.',
  parameters: (z) => z.object({ expression: z.string().describe('e.g. "17 * 23" or "(2^10 - 24) / 7"') }),
  readOnly: true,
  timeoutMs: 5_000,
  async execute({ expression }) {
    try {
      return `${expression} = ${formatNumber(evaluate(expression))}`;
    } catch (error) {
      if (error instanceof ExpressionError) return { output: `Cannot evaluate "${expression}": ${error.message}`, isError: true };
      throw error;
    }
  },
});
