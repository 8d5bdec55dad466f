/** At most this many cron jobs per session (a new one beyond it is refused). */
export declare const MAX_CRON_JOBS = 50;
/** A scheduled prompt is at most this long (it travels with the session's context). */
export declare const MAX_SCHEDULED_PROMPT = 4000;
export interface ScheduleWakeupOutput {
    scheduledFor?: number;
    clampedDelaySeconds?: number;
    wasClamped?: boolean;
    stopped?: boolean;
    cancelledWakeups?: number;
    /** The clock time in the session's zone, for the result text. */
    clock?: string;
}
export declare const ScheduleWakeupTool: import("../Tool").Tool<{
    delaySeconds?: number | undefined;
    reason?: string | undefined;
    prompt?: string | undefined;
    stop?: boolean | undefined;
    noop?: boolean | undefined;
}, ScheduleWakeupOutput>;
export interface CronCreateOutput {
    id: string;
    humanSchedule: string;
    recurring: boolean;
    durable: true;
    nextFireAt?: number;
    nextRun?: string;
}
export declare const CronCreateTool: import("../Tool").Tool<{
    cron: string;
    prompt: string;
    recurring?: boolean | undefined;
    durable?: boolean | undefined;
}, {
    nextFireAt?: number | undefined;
    nextRun?: string | undefined;
    id: string;
    humanSchedule: string;
    recurring: boolean;
    durable: boolean;
}>;
export interface CronListOutput {
    jobs: Array<{
        id: string;
        cron: string;
        humanSchedule: string;
        prompt: string;
        recurring: boolean;
        nextFireAt?: number;
        nextRun?: string;
    }>;
}
export declare const CronListTool: import("../Tool").Tool<Record<string, never>, {
    jobs: {
        id: string;
        cron: string;
        humanSchedule: string;
        prompt: string;
        recurring: boolean;
        nextFireAt?: number;
        nextRun?: string;
    }[];
}>;
export declare const CronDeleteTool: import("../Tool").Tool<{
    id: string;
}, {
    id: string;
}>;
export declare const SCHEDULE_TOOLS: (import("../Tool").Tool<{
    delaySeconds?: number | undefined;
    reason?: string | undefined;
    prompt?: string | undefined;
    stop?: boolean | undefined;
    noop?: boolean | undefined;
}, ScheduleWakeupOutput> | import("../Tool").Tool<{
    cron: string;
    prompt: string;
    recurring?: boolean | undefined;
    durable?: boolean | undefined;
}, {
    nextFireAt?: number | undefined;
    nextRun?: string | undefined;
    id: string;
    humanSchedule: string;
    recurring: boolean;
    durable: boolean;
}> | import("../Tool").Tool<Record<string, never>, {
    jobs: {
        id: string;
        cron: string;
        humanSchedule: string;
        prompt: string;
        recurring: boolean;
        nextFireAt?: number;
        nextRun?: string;
    }[];
}> | import("../Tool").Tool<{
    id: string;
}, {
    id: string;
}>)[];
