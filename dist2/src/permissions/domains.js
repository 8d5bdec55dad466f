"use strict";
// `WebFetch(domain:…)` rules and the sandbox's domain lists: which host names a pattern covers.
// `example.com` is that host only; `*.example.com` its subdomains (not itself); `*` inside a label
// stays inside it; `*` alone (or `domain:*`) covers every host. Case and trailing dots do not count.
Object.defineProperty(exports, "__esModule", { value: true });
exports.normalizeHost = normalizeHost;
exports.domainRuleContent = domainRuleContent;
exports.domainPatternMatches = domainPatternMatches;
exports.matchDomainRule = matchDomainRule;
exports.ruleNamesHost = ruleNamesHost;
/** A host name as rules compare it: lower case, no trailing dots, no IPv6 brackets. */
function normalizeHost(host) {
    const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    return h.toLowerCase().replace(/\.+$/, '');
}
/** The rule content WebFetch calls are matched on: `domain:<host>`. */
function domainRuleContent(host) {
    return `domain:${normalizeHost(host)}`;
}
function labelGlob(pattern) {
    return new RegExp(`^${pattern
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^.:]*')}$`);
}
/** Does a domain pattern (`example.com`, `*.example.com`, `*`) cover a host? */
function domainPatternMatches(pattern, host) {
    const p = normalizeHost(pattern.trim());
    const h = normalizeHost(host);
    if (p === '*')
        return true;
    if (p === '')
        return false;
    if (p.startsWith('*.')) {
        // One or more labels, then the base label by label.
        const base = p.slice(2);
        const want = base.split('.').length;
        const labels = h.split('.');
        return labels.length > want && !labels.includes('') && labelGlob(base).test(labels.slice(-want).join('.'));
    }
    return p.includes('*') ? labelGlob(p).test(h) : p === h;
}
/** Does a rule's content (`domain:<pattern>`) cover a call's content (`domain:<host>`)? */
function matchDomainRule(ruleContent, callContent) {
    if (!ruleContent.startsWith('domain:') || !callContent.startsWith('domain:'))
        return false;
    return domainPatternMatches(ruleContent.slice('domain:'.length), callContent.slice('domain:'.length));
}
/** Does a rule name this exact host (no wildcard)? Only such a rule lets WebFetch reach a loopback or private address. */
function ruleNamesHost(ruleContent, host) {
    if (!ruleContent.startsWith('domain:'))
        return false;
    const p = normalizeHost(ruleContent.slice('domain:'.length).trim());
    return !p.includes('*') && p === normalizeHost(host);
}
//# sourceMappingURL=domains.js.map