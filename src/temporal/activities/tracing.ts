// Our model-call and tool-call spans (issue 35; docs/deployment.md "Traces"): an activity interceptor
// a tracing worker installs inside Temporal's (src/temporal/tracing), so each span is the child of the
// activity's RunActivity span, itself the child of the turn's StartActivity span. The Anthropic SDK's
// own span of the API call, when it makes one, is the model call span's child. Attributes come from
// the activity's input and result (core/spanAttributes.ts): never content.
import { SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { Context } from '@temporalio/activity';
import type {
  ActivityExecuteInput,
  ActivityInboundCallsInterceptor,
  ActivityInterceptors,
  Next,
} from '@temporalio/worker';
import {
  SPAN,
  modelCallEndAttributes,
  modelCallStartAttributes,
  toolCallEndAttributes,
  toolCallStartAttributes,
  type SpanAttributes,
} from '../../core/spanAttributes';
import { errorLabel } from './metrics';
import { spanNotes } from './spanNotes';
import { sessionOfTurnWorkflowId } from '../../core/ids';

type Arg = Record<string, never> | undefined;

/** Which activities get a span of ours, its name and attributes. */
const SPANS: Record<
  string,
  | { name: string; start: (input: Arg, sessionId?: string) => SpanAttributes; end: (r: never) => SpanAttributes }
  | undefined
> = {
  callModel: { name: SPAN.modelCall, start: (i) => modelCallStartAttributes(i, 'turn'), end: modelCallEndAttributes },
  compactContext: {
    name: SPAN.modelCall,
    start: (i) => modelCallStartAttributes(i, 'compaction'),
    end: () => ({ 'durable_agent.model_call.outcome': 'ok' }),
  },
  runToolUse: {
    name: SPAN.toolCall,
    start: (i, sessionId) => toolCallStartAttributes(i, 'call', sessionId),
    end: toolCallEndAttributes,
  },
  prepareSubagent: {
    name: SPAN.toolCall,
    start: (i) => toolCallStartAttributes(i, 'subagent_prepare'),
    end: toolCallEndAttributes,
  },
  finishSubagent: {
    name: SPAN.toolCall,
    start: (i) => toolCallStartAttributes(i, 'subagent_finish'),
    end: toolCallEndAttributes,
  },
};

class AgentActivitySpans implements ActivityInboundCallsInterceptor {
  constructor(private readonly ctx: Context) {}

  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const spec = SPANS[this.ctx.info.activityType];
    if (!spec) return next(input);
    const workflowId = this.ctx.info.workflowExecution?.workflowId;
    const sessionId = workflowId ? sessionOfTurnWorkflowId(workflowId) : undefined;
    const attributes = {
      ...spec.start(input.args[0] as Arg, sessionId),
      'durable_agent.attempt': this.ctx.info.attempt,
    };
    return trace.getTracer('durable-agent').startActiveSpan(spec.name, { attributes }, async (span: Span) => {
      try {
        const r = await spanNotes.run(
          (a) => span.setAttributes(a),
          () => next(input),
        );
        span.setAttributes(spec.end((r ?? {}) as never));
        return r;
      } catch (err) {
        // The boundary made a domain error an ApplicationFailure typed with its code (errors.ts).
        const type = (err as { type?: unknown } | null)?.type;
        span.setAttribute('error.type', typeof type === 'string' && type !== '' ? type : errorLabel(err));
        span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
        throw err;
      } finally {
        span.end();
      }
    });
  }
}

/** The worker's activity interceptor factory for our spans (installed only when tracing is on). */
export function agentActivitySpans(ctx: Context): ActivityInterceptors {
  return { inbound: new AgentActivitySpans(ctx) };
}
