// The raw loop's calculator as a pi extension, so pi's rounds in side-by-side.bench.mjs run the same
// tool, with the same arguments and the same output, as the other contenders' (pi has no calculator).
export default function calculatorExtension(pi) {
  pi.registerTool({
    name: 'calculator',
    label: 'Calculator',
    description: 'Evaluate an arithmetic expression.',
    parameters: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
    async execute(_toolCallId, { expression }) {
      const text = /^[\d+\-*/(). ]+$/.test(expression) ? `${expression} = ${Function(`return (${expression})`)()}` : `not an arithmetic expression: ${expression}`;
      return { content: [{ type: 'text', text }], details: {} };
    },
  });
}
