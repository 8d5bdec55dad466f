/** A host name as rules compare it: lower case, no trailing dots, no IPv6 brackets. */
export declare function normalizeHost(host: string): string;
/** The rule content WebFetch calls are matched on: `domain:<host>`. */
export declare function domainRuleContent(host: string): string;
/** Does a domain pattern (`example.com`, `*.example.com`, `*`) cover a host? */
export declare function domainPatternMatches(pattern: string, host: string): boolean;
/** Does a rule's content (`domain:<pattern>`) cover a call's content (`domain:<host>`)? */
export declare function matchDomainRule(ruleContent: string, callContent: string): boolean;
/** Does a rule name this exact host (no wildcard)? Only such a rule lets WebFetch reach a loopback or private address. */
export declare function ruleNamesHost(ruleContent: string, host: string): boolean;
