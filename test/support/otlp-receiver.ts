/** A local OTLP/HTTP trace receiver on 127.0.0.1: collects the JSON bodies POSTed to /v1/traces. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status?: { code?: number; message?: string };
  events?: Array<{ name: string }>;
}

export interface OtlpReceiver {
  url: string;
  /** Every request body as received (for "this text is not in what was sent"). */
  bodies: string[];
  headers: IncomingHttpHeaders[];
  spans(): OtlpSpan[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies: string[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      headers.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    headers,
    spans: () => bodies.flatMap((body) => decode(JSON.parse(body) as ExportRequest)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface ExportRequest {
  resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: Array<Omit<OtlpSpan, 'attributes'> & { attributes?: Array<{ key: string; value: AnyValue }> }> }> }>;
}

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean; arrayValue?: { values?: AnyValue[] } };

function decode(request: ExportRequest): OtlpSpan[] {
  return (request.resourceSpans ?? []).flatMap((resource) =>
    (resource.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({ ...span, attributes: Object.fromEntries((span.attributes ?? []).map(({ key, value }) => [key, valueOf(value)])) })),
    ),
  );
}

function valueOf(value: AnyValue): unknown {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.doubleValue ?? value.boolValue;
}
