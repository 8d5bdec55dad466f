/** True when the server says there is no such workflow (or run). */
export declare function isWorkflowNotFound(err: unknown): boolean;
