"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.formatPath = formatPath;
exports.describeIssues = describeIssues;
exports.formatInputValidationError = formatInputValidationError;
function typeOf(v) {
    if (v === null)
        return 'null';
    if (Array.isArray(v))
        return 'array';
    return typeof v;
}
function valueAt(root, p) {
    let cur = root;
    for (const k of p) {
        if (cur === null || typeof cur !== 'object')
            return undefined;
        cur = cur[k];
    }
    return cur;
}
function formatPath(p) {
    let out = '';
    for (const k of p) {
        if (typeof k === 'number')
            out += `[${k}]`;
        else
            out += out ? `.${String(k)}` : String(k);
    }
    return out;
}
/** One line per issue: which field, and why. */
function describeIssues(issues, input) {
    return issues.map((issue) => {
        const where = formatPath(issue.path);
        const actual = valueAt(input, issue.path);
        switch (issue.code) {
            case 'invalid_type': {
                if (actual === undefined && issue.path.length > 0)
                    return `The required parameter \`${where}\` is missing`;
                const expected = issue.expected ?? 'another type';
                if (where === '')
                    return `The input is expected to be \`${expected}\` but was provided as \`${typeOf(input)}\``;
                return `The parameter \`${where}\` type is expected as \`${expected}\` but provided as \`${typeOf(actual)}\``;
            }
            case 'unrecognized_keys': {
                const keys = issue.keys ?? [];
                const prefix = where ? `${where}.` : '';
                return keys.length === 1
                    ? `An unexpected parameter \`${prefix}${keys[0]}\` was provided`
                    : `Unexpected parameters were provided: ${keys.map((k) => `\`${prefix}${k}\``).join(', ')}`;
            }
            default:
                return where
                    ? `The parameter \`${where}\` is invalid: ${issue.message}`
                    : `The input is invalid: ${issue.message}`;
        }
    });
}
function formatInputValidationError(toolName, error, input, note) {
    const lines = describeIssues(error.issues, input);
    const head = `InputValidationError: ${toolName} failed due to the following ${lines.length === 1 ? 'issue' : 'issues'}${note ? ` (${note})` : ''}:`;
    return [head, ...lines.map((l) => `- ${l}`)].join('\n');
}
//# sourceMappingURL=validation.js.map