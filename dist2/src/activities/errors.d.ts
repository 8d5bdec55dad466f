/** The ApplicationFailure an activity fails with for a domain error; anything else as it is. */
export declare function toApplicationFailure(err: unknown): unknown;
export declare function withErrorCodes<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R>;
