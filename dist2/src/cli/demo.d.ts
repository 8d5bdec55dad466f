export declare function sampleProjectDir(): string;
export interface DemoOptions {
    db: string;
    port: number;
    uiPort: number;
    autoApprove: boolean;
    exit: boolean;
    /** No --db: the default database (see startDev). */
    defaultDb?: boolean;
    waitForSignal: () => Promise<void>;
}
export declare function runDemo(o: DemoOptions): Promise<number>;
