// Workflow interceptors of a tracing worker (issue 35; docs/deployment.md "Traces"), bundled with
// the workflows only when tracing is on (src/temporal/tracing: TRACING_WORKFLOW_MODULE). Not a
// workflow: Temporal's OpenTelemetry interceptors (RunWorkflow, StartActivity, StartChildWorkflow,
// ContinueAsNew… spans, the context passed on in headers) and ours:
// - `durable_agent.session` around a session workflow run and `durable_agent.turn` around a turn,
//   inside Temporal's RunWorkflow span, so the turn's activities and child sessions are under them;
// - queries and update validators draw their span ids from a random stream of their own. They run
//   on a cached workflow and not when it is replayed, so drawing from the workflow's stream would
//   give every later span another id on a replaying worker than the one its children already carry
//   (a broken parent chain after a worker restart). The spans are otherwise deterministic: ids from
//   the workflow's seeded random, times from workflow time, and the sink they leave by is not called
//   during replay — a replaying worker exports nothing twice, and a span that began before a
//   restart ends with the same id after it.
import { SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';
import {
  ContinueAsNew,
  getRandomStream,
  workflowInfo,
  type Next,
  type QueryInput,
  type UpdateInput,
  type WorkflowExecuteInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptors,
} from '@temporalio/workflow';
import {
  SPAN,
  sessionEndAttributes,
  sessionStartAttributes,
  turnEndAttributes,
  turnStartAttributes,
  type SpanAttributes,
} from '../../core/spanAttributes';

const QUERY_RANDOM = 'durable-agent:otel-queries';

/** Outermost: queries and update validators draw from their own random stream (see above). */
class ApartFromReplay implements WorkflowInboundCallsInterceptor {
  handleQuery(input: QueryInput, next: Next<WorkflowInboundCallsInterceptor, 'handleQuery'>): Promise<unknown> {
    return getRandomStream(QUERY_RANDOM).with(() => next(input));
  }
  validateUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'validateUpdate'>): void {
    getRandomStream(QUERY_RANDOM).with(() => next(input));
  }
}

/** Inside Temporal's RunWorkflow span: the session's or the turn's own span. */
class AgentSpans implements WorkflowInboundCallsInterceptor {
  async execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const info = workflowInfo();
    const arg = input.args[0] as Record<string, unknown> | undefined;
    let name: string;
    let start: SpanAttributes;
    let end: (r: unknown) => SpanAttributes;
    if (info.workflowType === 'sessionWorkflow') {
      name = SPAN.session;
      start = sessionStartAttributes(info.workflowId, arg, info.parent?.workflowId);
      end = (r) => sessionEndAttributes(r as Parameters<typeof sessionEndAttributes>[0]);
    } else if (info.workflowType === 'turnWorkflow') {
      name = SPAN.turn;
      start = turnStartAttributes(arg);
      end = (r) => turnEndAttributes(r as Parameters<typeof turnEndAttributes>[0]);
    } else return next(input);
    return trace.getTracer('durable-agent').startActiveSpan(name, { attributes: start }, async (span: Span) => {
      try {
        const r = await next(input);
        span.setAttributes(end(r ?? {}));
        return r;
      } catch (err) {
        if (err instanceof ContinueAsNew) span.setAttribute('durable_agent.continued_as_new', true);
        else span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
        throw err;
      } finally {
        span.end();
      }
    });
  }
}

export const interceptors = (): WorkflowInterceptors => ({
  inbound: [new ApartFromReplay(), new OpenTelemetryInboundInterceptor(), new AgentSpans()],
  outbound: [new OpenTelemetryOutboundInterceptor()],
  internals: [new OpenTelemetryInternalsInterceptor()],
});
