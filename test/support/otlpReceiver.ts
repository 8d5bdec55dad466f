// A local OTLP/HTTP traces receiver for tests and benches (issue 35): POST /v1/traces with the
// exporter's protobuf (application/x-protobuf, decoded with protobufjs against the OTLP trace
// messages below) or JSON (application/json). Keeps every span with its resource's attributes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

/** The part of opentelemetry/proto/collector/trace/v1 and trace/v1 a receiver reads (same field numbers). */
const OTLP_TRACE_PROTO = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
message InstrumentationScope { string name = 1; string version = 2; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4;
  string name = 5; int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
}
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value {
    string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4;
    ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
`;

const request = protobuf.parse(OTLP_TRACE_PROTO, { keepCase: false }).root.lookupType('otlp.ExportTraceServiceRequest');

export type AttrValue = string | number | boolean | AttrValue[] | { [key: string]: AttrValue } | null;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  attributes: Record<string, AttrValue>;
  resource: Record<string, AttrValue>;
  scope: string;
  /** How it arrived: 'protobuf' or 'json'. */
  encoding: 'protobuf' | 'json';
}

export interface OtlpReceiver {
  /** The base endpoint (OTEL_EXPORTER_OTLP_ENDPOINT). */
  endpoint: string;
  spans: ReceivedSpan[];
  requests: number;
  close(): Promise<void>;
}

interface WireValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: WireValue[] };
  kvlistValue?: { values?: WireKv[] };
}
interface WireKv {
  key: string;
  value?: WireValue;
}

function value(v: WireValue | undefined): AttrValue {
  if (!v) return null;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(value);
  if (v.kvlistValue) return attrs(v.kvlistValue.values);
  return null;
}

function attrs(kvs: WireKv[] | undefined): Record<string, AttrValue> {
  return Object.fromEntries((kvs ?? []).map((kv) => [kv.key, value(kv.value)]));
}

interface WireRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: WireKv[] };
    scopeSpans?: Array<{
      scope?: { name?: string };
      spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; attributes?: WireKv[] }>;
    }>;
  }>;
}

function spansOf(req: WireRequest, encoding: ReceivedSpan['encoding']): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of req.resourceSpans ?? [])
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? [])
        out.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? '',
          name: s.name,
          attributes: attrs(s.attributes),
          resource: attrs(rs.resource?.attributes),
          scope: ss.scope?.name ?? '',
          encoding,
        });
  return out;
}

/** Decodes one export request body. */
export function decodeTraces(body: Buffer, contentType: string): ReceivedSpan[] {
  if (contentType.includes('json')) return spansOf(JSON.parse(body.toString('utf8')) as WireRequest, 'json');
  const msg = request.decode(body);
  const obj = request.toObject(msg, { longs: String, bytes: String, defaults: false }) as WireRequest;
  // bytes: String gives base64: ids are hex on the wire's JSON form and in every trace viewer.
  const hex = (b64: string | undefined): string => (b64 ? Buffer.from(b64, 'base64').toString('hex') : '');
  for (const rs of obj.resourceSpans ?? [])
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? []) {
        s.traceId = hex(s.traceId);
        s.spanId = hex(s.spanId);
        s.parentSpanId = hex(s.parentSpanId);
      }
  return spansOf(obj, 'protobuf');
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const r = { requests: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      try {
        spans.push(...decodeTraces(Buffer.concat(chunks), String(req.headers['content-type'] ?? '')));
        r.requests++;
        const json = String(req.headers['content-type'] ?? '').includes('json');
        res
          .writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' })
          .end(json ? '{}' : '');
      } catch (err) {
        res.writeHead(400).end(String(err));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    get requests() {
      return r.requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
