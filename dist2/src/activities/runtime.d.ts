import type { CallRuntime } from '../calls/runtime';
export declare function activityRuntime(): CallRuntime;
