export interface NextCronFiresInput {
    jobs: Array<{
        id: string;
        cron: string;
        timeZone: string;
        after: number;
    }>;
}
/** Job id → the first firing strictly after `after` (null: none within a year, or unreadable). */
export type NextCronFiresResult = Record<string, number | null>;
export declare function createScheduleActivities(): {
    nextCronFires(input: NextCronFiresInput): Promise<NextCronFiresResult>;
};
