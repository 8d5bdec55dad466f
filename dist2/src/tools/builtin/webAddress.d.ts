/** Is this IP address loopback, private, link-local or otherwise not on the public internet? */
export declare function isInternalAddress(address: string): boolean;
/** A URL's hostname as an address or a DNS name: brackets of an IPv6 literal removed, lower case, trailing dots dropped. */
export declare function bareHost(hostname: string): string;
export interface ResolvedHost {
    address: string;
    family: 4 | 6;
}
export type Resolver = (host: string) => Promise<ResolvedHost[]>;
export declare const systemResolver: Resolver;
/**
 * The address to connect to for `host`, or why there is none. Every address the name resolves to
 * is judged: one internal address among public ones refuses the host (a name that points inside
 * is not fetched by accident of which answer comes first), unless `internalAllowed`.
 */
export declare function checkedAddress(host: string, internalAllowed: boolean, resolve?: Resolver): Promise<{
    ok: true;
    address: ResolvedHost;
} | {
    ok: false;
    message: string;
}>;
