// OpenTelemetry traces (issue 35; docs/deployment.md "Traces"): the process's tracer provider when
// the standard OTEL_* variables ask for one, and what the client and the worker add with it —
// Temporal's interceptors (@temporalio/interceptors-opentelemetry) and our own spans (session → turn
// in the workflows, src/temporal/workflows/tracing.ts; model and tool calls in the activities,
// src/temporal/activities/tracing.ts). With tracing off nothing here loads an OpenTelemetry module,
// no interceptor is installed and the workflow bundle is the plain one: zero cost.
import type { SpanProcessor, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { Resource } from '@opentelemetry/resources';
import type { ClientInterceptors, WorkflowClientInterceptor } from '@temporalio/client';
import type { InjectedSinks, WorkerInterceptors } from '@temporalio/worker';
import type { OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry/lib/workflow';
import { tracingSettings, type TracingSettings } from './settings';

export { tracingSettings, TracingConfigError, type TracingSettings } from './settings';

/** The workflow interceptors module a tracing worker bundles with the workflows (Temporal's, then ours). */
export const TRACING_WORKFLOW_MODULE = require.resolve('../workflows/tracing');

/** The process's tracing: its span processor (batched export) and resource. */
export interface Tracing {
  settings: TracingSettings;
  processor: SpanProcessor;
  resource: Resource;
  /** Exports what is buffered (a worker that stops, the CLI before it exits). */
  flush(): Promise<void>;
}

let current: Tracing | undefined;

/**
 * Starts tracing for this process when `env` asks for it (tracingSettings), once: the tracer
 * provider registered globally with the W3C trace-context propagator and an AsyncLocalStorage context
 * manager (so a span started in an activity is the child of Temporal's RunActivity span), spans
 * batched to the OTLP exporter (OTEL_BSP_* tune the batching, OTEL_TRACES_SAMPLER the sampling,
 * OTEL_EXPORTER_OTLP_HEADERS the headers, OTEL_RESOURCE_ATTRIBUTES the resource). Undefined: off.
 */
export function startTracing(env: Record<string, string | undefined> = process.env): Tracing | undefined {
  if (current) return current;
  const settings = tracingSettings(env);
  if (!settings) return undefined;
  // Loaded only now: a process without tracing never loads the SDK.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const base = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const resources = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const hooks = require('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks');
  const exporter =
    settings.exporter === 'console'
      ? new base.ConsoleSpanExporter()
      : settings.protocol === 'http/json'
        ? new (
            require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http')
          ).OTLPTraceExporter({ url: settings.url! })
        : new (
            require('@opentelemetry/exporter-trace-otlp-proto') as typeof import('@opentelemetry/exporter-trace-otlp-proto')
          ).OTLPTraceExporter({ url: settings.url! });
  /* eslint-enable @typescript-eslint/no-require-imports */
  const resource = resources.Resource.default()
    .merge(new resources.Resource({ 'service.name': settings.serviceName }))
    .merge(resources.envDetectorSync.detect());
  const processor = new base.BatchSpanProcessor(exporter);
  const provider = new base.BasicTracerProvider({ resource, spanProcessors: [processor] });
  provider.register({ contextManager: new hooks.AsyncLocalStorageContextManager().enable() });
  current = { settings, processor, resource, flush: () => provider.forceFlush() };
  return current;
}

/** Exports what this process has buffered, if it traces (the CLI calls it before it exits). */
export async function flushTracing(): Promise<void> {
  await current?.flush().catch(() => undefined);
}

/** The client's interceptors: each start, signal, update and query is a span whose context the workflow continues. */
export function tracingClientInterceptors(tracing: Tracing | undefined): ClientInterceptors | undefined {
  if (!tracing) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { OpenTelemetryWorkflowClientInterceptor } = require('@temporalio/interceptors-opentelemetry/lib/client') as {
    OpenTelemetryWorkflowClientInterceptor: new () => WorkflowClientInterceptor;
  };
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}

/**
 * What a tracing worker adds: Temporal's activity interceptors (RunActivity spans, continuing the
 * workflow's context from the activity's headers) followed by `ownActivitySpans` (our model and tool
 * call spans inside them), the workflow interceptors module (TRACING_WORKFLOW_MODULE), and the sink
 * the workflow's spans leave the sandbox by. That sink is not called during replay, so a replaying
 * worker exports nothing again.
 */
export function tracingWorkerOptions(
  tracing: Tracing,
  ownActivitySpans: NonNullable<WorkerInterceptors['activity']>[number],
): { interceptors: WorkerInterceptors; sinks: InjectedSinks<OpenTelemetrySinks> } {
  type OtelWorker = typeof import('@temporalio/interceptors-opentelemetry/lib/worker');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const otel = require('@temporalio/interceptors-opentelemetry/lib/worker') as OtelWorker;
  return {
    interceptors: {
      // The worker's client, which activities signal with (a streamed tool_use to its turn): the signal carries the call's context.
      client: tracingClientInterceptors(tracing)!,
      activity: [
        (ctx) => ({
          inbound: new otel.OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new otel.OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
        ownActivitySpans,
      ],
      workflowModules: [TRACING_WORKFLOW_MODULE],
    },
    sinks: { exporter: otel.makeWorkflowExporter(withoutWorkflowDetails(tracing.processor), tracing.resource) },
  };
}

/**
 * The workflow exporter adds every field of the workflow's info to each span's attributes: its memo
 * (the session's prompt), search attributes, last result. Only plain values are kept (ids, type,
 * task queue, namespace, attempt, history length): nothing of a session's content leaves in a span.
 */
export function withoutWorkflowDetails(processor: SpanProcessor): SpanProcessor {
  const dropped = new Set(['memo', 'searchAttributes', 'typedSearchAttributes', 'lastResult', 'lastFailure']);
  return {
    onStart: (span, ctx) => processor.onStart(span, ctx),
    onEnd: (span: ReadableSpan) => {
      const attributes = span.attributes as Record<string, unknown>;
      for (const [k, v] of Object.entries(attributes))
        if (dropped.has(k) || (v !== null && typeof v === 'object' && !Array.isArray(v)) || v === undefined)
          delete attributes[k];
      processor.onEnd(span);
    },
    forceFlush: () => processor.forceFlush(),
    shutdown: () => processor.shutdown(),
  };
}

/**
 * The worker's interceptors: the caller's, with tracing's in front (outermost) when it is on. The
 * workflow module is left out for a prebuilt bundle, which holds its modules already.
 */
export function withTracingInterceptors(
  own: WorkerInterceptors | undefined,
  traced: WorkerInterceptors | undefined,
  prebuiltBundle: boolean,
): WorkerInterceptors | undefined {
  if (!traced) return own;
  const ownWorkflow = own?.client?.workflow;
  return {
    ...own,
    client: {
      ...own?.client,
      // An interceptor object of the older form (not a list) is kept as it is, untraced.
      workflow:
        ownWorkflow && !Array.isArray(ownWorkflow)
          ? ownWorkflow
          : [...((traced.client?.workflow as WorkflowClientInterceptor[] | undefined) ?? []), ...(ownWorkflow ?? [])],
    },
    activity: [...(traced.activity ?? []), ...(own?.activity ?? [])],
    workflowModules: [...(prebuiltBundle ? [] : (traced.workflowModules ?? [])), ...(own?.workflowModules ?? [])],
  };
}
