export declare const PREVIOUS_RELEASE: string;
/** The release's built worker script (workerProcess.js), building it first when needed; or why it cannot be had here. */
export declare function previousRelease(commit?: string): {
    script?: string;
    why?: string;
};
