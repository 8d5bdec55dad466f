export type ConfigFileRead = {
    text: string;
} | {
    missing: true;
} | {
    refused: string;
};
export interface ConfigReadOptions {
    /** A project's file: its real path must lie inside one of these directories. */
    within?: readonly string[];
    /** For the credential list (default: the user's home). */
    home?: string;
}
/** Reads one configuration file (see the header); throws only for what a plain read would (EISDIR, EACCES…). */
export declare function readConfigFileSync(path: string, opts?: ConfigReadOptions): ConfigFileRead;
