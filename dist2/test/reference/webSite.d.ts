export interface WebSite {
    /** `https://127.0.0.1:<port>` */
    base: string;
    port: number;
    /** The CA certificate file (PEM): NODE_EXTRA_CA_CERTS of the reference. */
    caFile: string;
    /** Requests per path. */
    hits: Map<string, number>;
    close(): Promise<void>;
}
export declare const PAGE_HTML = "<html><head><title>Ref page</title></head><body><h1>Ref page</h1><p>The answer is 42.</p></body></html>";
/** The site (started once per run of the harness). */
export declare function webSite(): Promise<WebSite>;
