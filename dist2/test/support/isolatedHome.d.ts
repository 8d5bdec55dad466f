/** The data directory this test process uses (never the user's own). */
export declare const testDataHome: () => string;
