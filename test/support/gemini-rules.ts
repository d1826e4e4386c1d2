/**
 * The request rules the Gemini test server enforces: what the real API rejects with 400, plus
 * the signature rule (a thoughtSignature must come back on the part it was sent on). Written
 * independently of src/ so the adapter cannot pass by sharing a bug with its checker.
 */
import { checkInlineImage } from './image-check.js';
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { name: string; args?: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; response: unknown; id?: string };
  [key: string]: unknown;
}

export interface GeminiRequestBody {
  contents?: Array<{ role?: string; parts?: GeminiPart[] }>;
  systemInstruction?: { role?: string; parts?: GeminiPart[] };
  tools?: Array<{ functionDeclarations?: Array<{ name: string; description?: string; parameters?: Record<string, unknown> }>; googleSearch?: unknown; [key: string]: unknown }>;
  generationConfig?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface SentSignature {
  signature: string;
  kind: 'text' | 'call';
  name?: string;
}

const SCHEMA_KEYS = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required', 'minProperties',
  'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'propertyOrdering', 'default', 'items', 'minimum', 'maximum',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);
const NAME = /^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/;
/** The Tool fields the Gemini API knows (an unknown one is "Invalid JSON payload received. Unknown name"). */
const TOOL_KEYS = new Set(['functionDeclarations', 'googleSearch', 'googleSearchRetrieval', 'codeExecution', 'urlContext', 'retrieval', 'computerUse', 'fileSearch', 'googleMaps']);
/** What a content part may hold: grounding metadata belongs to the response's candidate, never to a part sent back. */
const PART_KEYS = new Set(['text', 'thought', 'thoughtSignature', 'functionCall', 'functionResponse', 'inlineData', 'fileData', 'executableCode', 'codeExecutionResult', 'videoMetadata', 'partMetadata']);

export function checkGeminiRequest(body: GeminiRequestBody, previous: { calls: number; signatures: SentSignature[] }): string[] {
  const problems: string[] = [];
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0) return ['contents must be a non-empty array'];

  contents.forEach((content, i) => {
    if (content.role !== 'user' && content.role !== 'model') problems.push(`contents[${i}].role is ${JSON.stringify(content.role)} (must be user or model)`);
    if (!Array.isArray(content.parts) || content.parts.length === 0) problems.push(`contents[${i}].parts must not be empty`);
    (content.parts ?? []).forEach((part, j) => {
      for (const key of Object.keys(part)) if (!PART_KEYS.has(key)) problems.push(`contents[${i}].parts[${j}]: Invalid JSON payload received. Unknown name "${key}"`);
      if (part.inlineData === undefined) return;
      const inline = part.inlineData as { mimeType?: unknown; data?: unknown };
      if (content.role !== 'user') problems.push(`contents[${i}].parts[${j}]: inlineData is only allowed in user turns here`);
      problems.push(...checkInlineImage(`contents[${i}].parts[${j}].inlineData`, inline?.mimeType, inline?.data, 20 * 1024 * 1024));
    });
  });

  for (let i = 0; i < contents.length; i++) {
    const parts = contents[i]!.parts ?? [];
    const responses = parts.filter((part) => part.functionResponse);
    for (const part of responses) {
      const response = part.functionResponse!.response;
      if (!response || typeof response !== 'object' || Array.isArray(response)) {
        problems.push(`contents[${i}]: functionResponse ${part.functionResponse!.name} has a response that is not an object (${JSON.stringify(response)})`);
      }
    }
    const calls = contents[i]!.role === 'model' ? parts.filter((part) => part.functionCall).map((part) => part.functionCall!) : [];
    const before = contents[i - 1];
    const afterCalls = before?.role === 'model' && (before.parts ?? []).some((part) => part.functionCall);
    if (responses.length && !afterCalls) problems.push(`contents[${i}]: functionResponse parts that follow no functionCall turn`);
    if (!calls.length) continue;
    const next = contents[i + 1];
    const answers = next?.role === 'user' ? (next.parts ?? []).filter((part) => part.functionResponse).map((part) => part.functionResponse!) : [];
    const names = calls.map((call) => call.name);
    const answered = answers.map((answer) => answer.name);
    if (names.join(',') !== answered.join(',')) {
      problems.push(`contents[${i}]: functionCalls [${names.join(', ')}] answered by functionResponses [${answered.join(', ')}] (one per call, in order, same names)`);
    }
    calls.forEach((call, k) => {
      if (call.id && answers[k] && answers[k]!.id !== call.id) problems.push(`contents[${i + 1}]: functionResponse for call id ${call.id} carries id ${String(answers[k]!.id)}`);
      if (!call.args || typeof call.args !== 'object' || Array.isArray(call.args)) problems.push(`contents[${i}]: functionCall ${call.name} args must be an object`);
    });
  }

  if (previous.calls) {
    const lastModel = [...contents].reverse().find((content) => content.role === 'model');
    const echoed = (lastModel?.parts ?? []).filter((part) => part.functionCall).length;
    if (echoed !== previous.calls) problems.push(`the reply's ${previous.calls} functionCall(s) came back as ${echoed}`);
  }
  const modelParts = contents.filter((content) => content.role === 'model').flatMap((content) => content.parts ?? []);
  for (const sent of previous.signatures) {
    const part = modelParts.find((candidate) => candidate.thoughtSignature === sent.signature);
    if (!part) problems.push(`thoughtSignature ${sent.signature} was not sent back`);
    else if (sent.kind === 'call' ? part.functionCall?.name !== sent.name : typeof part.text !== 'string' || part.functionCall) {
      problems.push(`thoughtSignature ${sent.signature} came back on the wrong part (${JSON.stringify(part)})`);
    }
  }

  for (const [t, tool] of (body.tools ?? []).entries()) {
    for (const key of Object.keys(tool)) if (!TOOL_KEYS.has(key)) problems.push(`tools[${t}]: Invalid JSON payload received. Unknown name "${key}"`);
    if (tool.googleSearch !== undefined && (typeof tool.googleSearch !== 'object' || tool.googleSearch === null || Array.isArray(tool.googleSearch))) problems.push(`tools[${t}].googleSearch must be an object ({} to turn it on)`);
    for (const [d, declaration] of (tool.functionDeclarations ?? []).entries()) {
      const where = `tools[${t}].functionDeclarations[${d}]`;
      if (!NAME.test(declaration.name ?? '')) problems.push(`${where}.name ${JSON.stringify(declaration.name)} does not match ${NAME}`);
      if (declaration.parameters) {
        const schema = declaration.parameters;
        if (String(schema.type).toLowerCase() === 'object' && !Object.keys((schema.properties as object | undefined) ?? {}).length) {
          problems.push(`${where}.parameters.properties: should be non-empty for OBJECT type`);
        }
        checkSchema(schema, `${where}.parameters`, problems);
      }
    }
  }
  return problems;
}

function checkSchema(schema: Record<string, unknown>, where: string, problems: string[]): void {
  for (const key of Object.keys(schema)) {
    if (!SCHEMA_KEYS.has(key)) problems.push(`${where}: Invalid JSON payload received. Unknown name "${key}"`);
  }
  if (schema.type !== undefined && schema.anyOf !== undefined) problems.push(`${where}: type and anyOf cannot both be set`);
  if (schema.type !== undefined && (typeof schema.type !== 'string' || !TYPES.has(schema.type.toLowerCase()))) problems.push(`${where}.type ${JSON.stringify(schema.type)} is not a Gemini type`);
  if (schema.enum !== undefined && (!Array.isArray(schema.enum) || schema.enum.some((value) => typeof value !== 'string'))) problems.push(`${where}.enum must list strings`);
  if (schema.enum !== undefined && String(schema.type).toLowerCase() !== 'string') problems.push(`${where}.enum: only allowed for STRING type`);
  if (schema.format !== undefined) {
    const allowed: Record<string, string[]> = { string: ['enum', 'date-time'], integer: ['int32', 'int64'], number: ['float', 'double'] };
    if (!allowed[String(schema.type).toLowerCase()]?.includes(String(schema.format))) problems.push(`${where}.format ${JSON.stringify(schema.format)} is not supported for type ${String(schema.type)}`);
  }
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [name, child] of Object.entries(properties ?? {})) checkSchema(child, `${where}.properties.${name}`, problems);
  if (Array.isArray(schema.required)) {
    for (const name of schema.required) if (!properties || !(String(name) in properties)) problems.push(`${where}.required names ${String(name)}, which is not a property`);
  }
  if (schema.items && typeof schema.items === 'object') checkSchema(schema.items as Record<string, unknown>, `${where}.items`, problems);
  if (Array.isArray(schema.anyOf)) schema.anyOf.forEach((branch, i) => checkSchema(branch as Record<string, unknown>, `${where}.anyOf[${i}]`, problems));
}
