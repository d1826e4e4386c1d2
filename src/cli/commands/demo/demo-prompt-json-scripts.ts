import type { ModelRequest } from '../../../contracts/provider.js';
import type { ScriptStep } from '../../../providers/scripted.js';

/**
 * The offline demo's scripted replies under the prompt-JSON protocol, by task title: JSON text
 * instead of native calls. They include the failures such replies have in practice (a missing
 * brace, prose instead of JSON), so the comparison shows the parse-failure path.
 */
export function demoPromptJsonScripts(pageUrl: string): Record<string, ScriptStep[]> {
  return {
    'The time': [
      { text: '{"tool": "current_time", "arguments": {}}' },
      (request) => answer(`It is now ${lastResult(request).split(' ')[0]}.`),
    ],
    '17 × 23': [
      // Deliberately malformed: the closing brace is missing, as when a model stops early.
      { text: 'Sure, let me calculate that.\n{"tool": "calculator", "arguments": {"expression": "17 * 23"}' },
      { text: '{"tool": "calculator", "arguments": {"expression": "17 * 23"}}' },
      (request) => answer(`17 × 23 = ${lastResult(request).split('= ')[1]}.`),
    ],
    'Page length ÷ 7': [
      // Fenced, with a trailing comma: read leniently, not a failure.
      { text: `\`\`\`json\n{"tool": "fetch_url", "arguments": {"url": ${JSON.stringify(pageUrl)},},}\n\`\`\`` },
      (request) => {
        const length = /length: (\d+) characters/.exec(lastResult(request))?.[1] ?? '0';
        return { text: JSON.stringify({ tool: 'calculator', arguments: { expression: `${length} / 7` } }) };
      },
      (request) => {
        const [expression, value] = lastResult(request).split(' = ');
        return answer(`The page is ${expression?.split(' / ')[0]} characters long; divided by 7 that is ${value}.`);
      },
    ],
    '2099 World Cup': [
      // Prose instead of JSON: the model is reminded of the contract once.
      { text: "I don't know: the 2099 World Cup has not happened yet." },
      answer("I don't know: the 2099 World Cup has not happened yet, and none of my tools can tell the future."),
    ],
  };
}

function answer(text: string) {
  return { text: JSON.stringify({ answer: text }) };
}

/** The last tool result, as the prompt-JSON protocol delivers it: "Result of <tool> (call <id>): …". */
function lastResult(request: ModelRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i]!;
    const match = message.role === 'user' ? /^Result of \S+ \(call [^)]*\): ([\s\S]*)$/.exec(message.content) : null;
    if (match) return match[1]!;
  }
  return '';
}
