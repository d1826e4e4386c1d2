import type { ModelRequest } from '../../../contracts/provider.js';
import type { ScriptStep } from '../../../providers/scripted.js';

export interface DemoTask {
  title: string;
  prompt: string;
  /** What the built-in scripted model replies, step by step, when no real model is configured. */
  script: ScriptStep[];
}

/** The last tool result the model was sent: the scripted model reads it like a real one would. */
function lastToolResult(request: ModelRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i]!;
    if (message.role === 'tool') return message.content;
  }
  return '';
}

/** The course's four tasks: one tool, one tool, two tools chained, and no tool that fits. */
export function demoTasks(pageUrl: string): DemoTask[] {
  return [
    {
      title: 'The time',
      prompt: 'What time is it now?',
      script: [
        { toolCalls: [{ name: 'current_time', arguments: {} }] },
        (request) => ({ text: `It is now ${lastToolResult(request).split(' ')[0]}.` }),
      ],
    },
    {
      title: '17 × 23',
      prompt: 'What is 17 × 23?',
      script: [
        { toolCalls: [{ name: 'calculator', arguments: { expression: '17 * 23' } }] },
        (request) => ({ text: `17 × 23 = ${lastToolResult(request).split('= ')[1]}.` }),
      ],
    },
    {
      title: 'Page length ÷ 7',
      prompt: `Fetch ${pageUrl} and divide its length in characters by 7.`,
      script: [
        { toolCalls: [{ name: 'fetch_url', arguments: { url: pageUrl } }] },
        (request) => {
          const length = /length: (\d+) characters/.exec(lastToolResult(request))?.[1] ?? '0';
          return { toolCalls: [{ name: 'calculator', arguments: { expression: `${length} / 7` } }] };
        },
        (request) => {
          const [expression, value] = lastToolResult(request).split(' = ');
          return { text: `The page is ${expression?.split(' / ')[0]} characters long; divided by 7 that is ${value}.` };
        },
      ],
    },
    {
      title: '2099 World Cup',
      prompt: 'Who won the 2099 World Cup?',
      script: [{ text: 'I don\'t know: the 2099 World Cup has not happened yet, and none of my tools can tell the future.' }],
    },
  ];
}
