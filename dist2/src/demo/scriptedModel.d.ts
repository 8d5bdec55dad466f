import { type FakeAnthropicServer, type MessagesRequest, type ResponseSpec } from '../testing/fakeAnthropic';
export declare const DEMO_MODEL_LABEL = "scripted demo model (no ANTHROPIC_API_KEY set; this is not Claude)";
/** The demo's plan, one step per turn: explore in parallel, read, test, fix (asks), re-test, report. */
export declare function demoResponse(req: MessagesRequest): ResponseSpec;
export declare function startDemoModel(log?: (line: string) => void): Promise<FakeAnthropicServer>;
