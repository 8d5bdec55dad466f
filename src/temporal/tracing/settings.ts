// Whether this process exports traces, read from the standard OpenTelemetry variables (issue 35;
// docs/deployment.md "Traces"). Pure: the variables in, the settings out, a clear error for a value
// we cannot honour (loud configuration, invariant 12) — never a silent fallback.

/** How spans leave the process: OTLP over HTTP (protobuf or JSON) to `url`, or printed (`console`). */
export interface TracingSettings {
  exporter: 'otlp' | 'console';
  /** The OTLP traces URL (`…/v1/traces`); absent for `console`. */
  url?: string;
  protocol: 'http/protobuf' | 'http/json';
  /** Resource `service.name` (OTEL_SERVICE_NAME, else `durable-agent`). */
  serviceName: string;
}

/** A value of an OTEL_* variable we cannot honour. */
export class TracingConfigError extends Error {
  override name = 'TracingConfigError';
}

const DEFAULT_ENDPOINT = 'http://localhost:4318';

const set = (v: string | undefined): string | undefined => (v && v.trim() !== '' ? v.trim() : undefined);

/** The traces URL from the generic endpoint: `<endpoint>/v1/traces` (the OTLP exporter spec's rule). */
function tracesUrl(env: Record<string, string | undefined>): string {
  const specific = set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (specific) return specific;
  const base = set(env.OTEL_EXPORTER_OTLP_ENDPOINT) ?? DEFAULT_ENDPOINT;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * The tracing settings of a process with environment `env`, or undefined: tracing off. On when an
 * OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or
 * OTEL_TRACES_EXPORTER names `otlp` or `console`; off with OTEL_TRACES_EXPORTER=none or
 * OTEL_SDK_DISABLED=true, and when nothing is set (then nothing is loaded: zero cost).
 */
export function tracingSettings(env: Record<string, string | undefined> = process.env): TracingSettings | undefined {
  if (set(env.OTEL_SDK_DISABLED)?.toLowerCase() === 'true') return undefined;
  const named = set(env.OTEL_TRACES_EXPORTER)
    ?.split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
  const endpointSet = !!(set(env.OTEL_EXPORTER_OTLP_ENDPOINT) ?? set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT));
  const exporters = named ?? (endpointSet ? ['otlp'] : []);
  if (exporters.length === 0 || exporters.includes('none')) {
    if (exporters.length > 1)
      throw new TracingConfigError(
        `OTEL_TRACES_EXPORTER=${env.OTEL_TRACES_EXPORTER}: 'none' cannot be combined with another exporter`,
      );
    return undefined;
  }
  const unknown = exporters.filter((e) => e !== 'otlp' && e !== 'console');
  if (unknown.length > 0 || exporters.length > 1)
    throw new TracingConfigError(
      `OTEL_TRACES_EXPORTER=${env.OTEL_TRACES_EXPORTER}: durable-agent exports traces with one of 'otlp' (OTLP over HTTP), 'console' or 'none'`,
    );
  const protocol =
    set(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? set(env.OTEL_EXPORTER_OTLP_PROTOCOL) ?? 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json')
    throw new TracingConfigError(
      `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: durable-agent exports OTLP over HTTP — 'http/protobuf' (the default) or 'http/json', to port 4318 of a collector; gRPC is not supported`,
    );
  const serviceName = set(env.OTEL_SERVICE_NAME) ?? 'durable-agent';
  if (exporters[0] === 'console') return { exporter: 'console', protocol, serviceName };
  const url = tracesUrl(env);
  if (!/^https?:\/\//i.test(url))
    throw new TracingConfigError(`OTLP traces endpoint '${url}' is not an http(s) URL (OTEL_EXPORTER_OTLP_ENDPOINT)`);
  return { exporter: 'otlp', url, protocol, serviceName };
}
