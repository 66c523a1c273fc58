import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as the receiver decoded it from an OTLP/HTTP JSON export, attributes flattened to plain values. */
export type ReceivedSpan = {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  readonly resource: Readonly<Record<string, string | number | boolean>>;
  readonly startTimeUnixNano: string;
  readonly endTimeUnixNano: string;
  readonly status: { readonly code?: number; readonly message?: string };
};

/** A small OTLP/HTTP traces endpoint: decodes the JSON the exporter posts to /v1/traces and keeps every span. */
export type OtlpReceiver = {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  /** The headers of every export request, in order. */
  readonly requestHeaders: IncomingHttpHeaders[];
  /** Bodies that were not OTLP JSON (content types), so a protobuf export fails the test loudly. */
  readonly rejected: string[];
  close(): Promise<void>;
};

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type OtlpAttribute = { key: string; value: OtlpValue };
type OtlpExport = {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpAttribute[];
        startTimeUnixNano: string;
        endTimeUnixNano: string;
        status?: { code?: number; message?: string };
      }[];
    }[];
  }[];
};

/** Starts the receiver on an ephemeral port of 127.0.0.1. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requestHeaders: IncomingHttpHeaders[] = [];
  const rejected: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requestHeaders.push(request.headers);
      const type = request.headers['content-type'] ?? '';
      if (request.method !== 'POST' || request.url !== '/v1/traces' || !type.startsWith('application/json')) {
        rejected.push(`${request.method} ${request.url} ${type}`);
        response.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const resourceSpan of body.resourceSpans ?? []) {
        const resource = flatten(resourceSpan.resource?.attributes);
        for (const scopeSpan of resourceSpan.scopeSpans ?? []) {
          for (const span of scopeSpan.spans ?? []) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId === undefined || span.parentSpanId === '' ? undefined : span.parentSpanId,
              name: span.name,
              kind: span.kind,
              attributes: flatten(span.attributes),
              resource,
              startTimeUnixNano: String(span.startTimeUnixNano),
              endTimeUnixNano: String(span.endTimeUnixNano),
              status: span.status ?? {},
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requestHeaders,
    rejected,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function flatten(attributes: OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  const values: Record<string, string | number | boolean> = {};
  for (const { key, value } of attributes ?? []) {
    if (value.stringValue !== undefined) values[key] = value.stringValue;
    else if (value.intValue !== undefined) values[key] = Number(value.intValue);
    else if (value.boolValue !== undefined) values[key] = value.boolValue;
    else if (value.doubleValue !== undefined) values[key] = value.doubleValue;
  }
  return values;
}
