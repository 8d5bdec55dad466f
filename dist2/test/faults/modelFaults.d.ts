import type { ScenarioResult, SuiteContext } from './scenarios';
export declare function runModelFaults(ctx: SuiteContext): Promise<ScenarioResult>;
