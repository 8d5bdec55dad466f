export declare function waitFor<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs?: number, everyMs?: number): Promise<T>;
