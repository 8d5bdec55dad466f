/** Above this many characters the HTML is cut before conversion (as the reference: 1 MiB). */
export declare const HTML_CONVERT_MAX_CHARS: number;
export declare function decodeEntities(s: string): string;
/** HTML → Markdown-like text. */
export declare function htmlToText(html: string): string;
/** Does a content type carry text (shown) rather than binary data (named only)? */
export declare function isTextContentType(contentType: string): boolean;
