// `WebFetch(domain:…)` rules and the sandbox's domain lists: which host names a pattern covers.
// `example.com` is that host only; `*.example.com` its subdomains (not itself); `*` inside a label
// stays inside it; `*` alone (or `domain:*`) covers every host. Case and trailing dots do not count.

/** A host name as rules compare it: lower case, no trailing dots, no IPv6 brackets. */
export function normalizeHost(host: string): string {
  const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return h.toLowerCase().replace(/\.+$/, '');
}

/** The rule content WebFetch calls are matched on: `domain:<host>`. */
export function domainRuleContent(host: string): string {
  return `domain:${normalizeHost(host)}`;
}

function labelGlob(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^.:]*')}$`,
  );
}

/** Does a domain pattern (`example.com`, `*.example.com`, `*`) cover a host? */
export function domainPatternMatches(pattern: string, host: string): boolean {
  const p = normalizeHost(pattern.trim());
  const h = normalizeHost(host);
  if (p === '*') return true;
  if (p === '') return false;
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
export function matchDomainRule(ruleContent: string, callContent: string): boolean {
  if (!ruleContent.startsWith('domain:') || !callContent.startsWith('domain:')) return false;
  return domainPatternMatches(ruleContent.slice('domain:'.length), callContent.slice('domain:'.length));
}

/** Does a rule name this exact host (no wildcard)? Only such a rule lets WebFetch reach a loopback or private address. */
export function ruleNamesHost(ruleContent: string, host: string): boolean {
  if (!ruleContent.startsWith('domain:')) return false;
  const p = normalizeHost(ruleContent.slice('domain:'.length).trim());
  return !p.includes('*') && p === normalizeHost(host);
}
