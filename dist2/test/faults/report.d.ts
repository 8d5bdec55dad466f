import type { FakeAnthropicServer } from '../support/fakeAnthropic';
import type { ScenarioResult } from './scenarios';
export type Size = 'reduced' | 'full';
export declare function printReport(size: Size, results: ScenarioResult[], extra: {
    serverRestarts: number;
    seconds: number;
    fake: FakeAnthropicServer;
    leftovers?: string;
}): boolean;
