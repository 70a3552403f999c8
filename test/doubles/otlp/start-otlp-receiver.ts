import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs';
import { otlpProtoSchema } from './otlp-proto-schema.js';

/** An attribute value as decoded: strings, numbers, booleans and arrays of them. */
export type ReceivedValue = string | number | boolean | ReceivedValue[] | undefined;

/** One span the receiver got, ids in lowercase hex ('' for no parent). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 2 SERVER, 3 CLIENT */
  kind: number;
  startTimeUnixNano: number;
  endTimeUnixNano: number;
  attributes: Record<string, ReceivedValue>;
  events: Array<{ name: string; attributes: Record<string, ReceivedValue> }>;
  /** OTLP status code: 0 unset, 1 ok, 2 error */
  statusCode: number;
  resource: Record<string, ReceivedValue>;
}

/** One histogram data point of one export. */
export interface ReceivedHistogramPoint {
  attributes: Record<string, ReceivedValue>;
  count: number;
  sum: number;
  bucketCounts: number[];
  explicitBounds: number[];
}

/** One metric of one export (histograms only carry points here; other kinds keep their name and unit). */
export interface ReceivedMetric {
  name: string;
  unit: string;
  histogramPoints: ReceivedHistogramPoint[];
}

/** An OTLP/HTTP protobuf receiver on loopback: what the gateway's exporters send, decoded. */
export interface OtlpReceiver {
  /** e.g. `http://127.0.0.1:PORT` (append `/v1/traces` or `/v1/metrics`) */
  url: string;
  spans: ReceivedSpan[];
  /** every metric of every export, in arrival order (cumulative exports repeat a metric with growing counts) */
  metrics: ReceivedMetric[];
  /** the headers of every export request */
  requestHeaders: Array<Record<string, string | string[] | undefined>>;
  close(): Promise<void>;
}

const root = protobuf.parse(otlpProtoSchema, { keepCase: false }).root;
const traceRequestType = root.lookupType('otlp.ExportTraceServiceRequest');
const metricsRequestType = root.lookupType('otlp.ExportMetricsServiceRequest');
const traceResponseType = root.lookupType('otlp.ExportTraceServiceRequest');

const decodeOptions = { longs: Number, bytes: Buffer, defaults: true, arrays: true, objects: true, oneofs: true };

interface DecodedKeyValue {
  key: string;
  value?: DecodedAnyValue;
}
interface DecodedAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number;
  doubleValue?: number;
  arrayValue?: { values: DecodedAnyValue[] };
  value?: string;
}

function valueOf(value: DecodedAnyValue | undefined): ReceivedValue {
  if (!value) return undefined;
  switch (value.value) {
    case 'stringValue':
      return value.stringValue;
    case 'boolValue':
      return value.boolValue;
    case 'intValue':
      return value.intValue;
    case 'doubleValue':
      return value.doubleValue;
    case 'arrayValue':
      return (value.arrayValue?.values ?? []).map(valueOf);
    default:
      return undefined;
  }
}

function attributesOf(list: DecodedKeyValue[] | undefined): Record<string, ReceivedValue> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, valueOf(entry.value)]));
}

function hexOf(bytes: Uint8Array | undefined): string {
  return bytes ? Buffer.from(bytes).toString('hex') : '';
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  return request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
}

/* The decoded messages are plain objects in the schema's shape; these interfaces name the fields read. */
interface DecodedTraceRequest {
  resourceSpans: Array<{
    resource?: { attributes: DecodedKeyValue[] };
    scopeSpans: Array<{
      spans: Array<{
        traceId: Uint8Array;
        spanId: Uint8Array;
        parentSpanId: Uint8Array;
        name: string;
        kind: number;
        startTimeUnixNano: number;
        endTimeUnixNano: number;
        attributes: DecodedKeyValue[];
        events: Array<{ name: string; attributes: DecodedKeyValue[] }>;
        status?: { code: number };
      }>;
    }>;
  }>;
}
interface DecodedMetricsRequest {
  resourceMetrics: Array<{
    scopeMetrics: Array<{
      metrics: Array<{
        name: string;
        unit: string;
        histogram?: {
          dataPoints: Array<{
            attributes: DecodedKeyValue[];
            count: number;
            sum: number;
            bucketCounts: number[];
            explicitBounds: number[];
          }>;
        };
      }>;
    }>;
  }>;
}

/** Starts the receiver on 127.0.0.1 and a free port; it answers every export with an empty success. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const metrics: ReceivedMetric[] = [];
  const requestHeaders: OtlpReceiver['requestHeaders'] = [];
  const server = createServer((request, response) => {
    readBody(request)
      .then((body) => {
        requestHeaders.push(request.headers);
        if (request.url === '/v1/traces') {
          const decoded = traceRequestType.toObject(
            traceRequestType.decode(body),
            decodeOptions,
          ) as DecodedTraceRequest;
          for (const resourceSpans of decoded.resourceSpans) {
            const resource = attributesOf(resourceSpans.resource?.attributes);
            for (const scopeSpans of resourceSpans.scopeSpans)
              for (const span of scopeSpans.spans)
                spans.push({
                  traceId: hexOf(span.traceId),
                  spanId: hexOf(span.spanId),
                  parentSpanId: hexOf(span.parentSpanId),
                  name: span.name,
                  kind: span.kind,
                  startTimeUnixNano: span.startTimeUnixNano,
                  endTimeUnixNano: span.endTimeUnixNano,
                  attributes: attributesOf(span.attributes),
                  events: span.events.map((event) => ({
                    name: event.name,
                    attributes: attributesOf(event.attributes),
                  })),
                  statusCode: span.status?.code ?? 0,
                  resource,
                });
          }
        } else if (request.url === '/v1/metrics') {
          const decoded = metricsRequestType.toObject(
            metricsRequestType.decode(body),
            decodeOptions,
          ) as DecodedMetricsRequest;
          for (const resourceMetrics of decoded.resourceMetrics)
            for (const scopeMetrics of resourceMetrics.scopeMetrics)
              for (const metric of scopeMetrics.metrics)
                metrics.push({
                  name: metric.name,
                  unit: metric.unit,
                  histogramPoints: (metric.histogram?.dataPoints ?? []).map((point) => ({
                    attributes: attributesOf(point.attributes),
                    count: point.count,
                    sum: point.sum,
                    bucketCounts: point.bucketCounts,
                    explicitBounds: point.explicitBounds,
                  })),
                });
        } else {
          response.writeHead(404).end();
          return;
        }
        // An empty Export*ServiceResponse: no partial success.
        response.writeHead(200, { 'content-type': 'application/x-protobuf' });
        response.end(Buffer.from(traceResponseType.encode(traceResponseType.create({})).finish()));
      })
      .catch(() => response.writeHead(400).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    metrics,
    requestHeaders,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
