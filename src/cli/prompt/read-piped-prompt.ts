/** The whole of piped stdin, for `echo "task" | vibe-agent`. */
export async function readPipedPrompt(input: NodeJS.ReadableStream = process.stdin): Promise<string> {
  let text = '';
  input.setEncoding('utf8');
  for await (const chunk of input) text += chunk as string;
  return text.trim();
}
