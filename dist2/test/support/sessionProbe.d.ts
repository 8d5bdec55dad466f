import type { MessagesRequest } from '../../src/testing/fakeAnthropic';
/** The texts of one message's content: its text blocks and its tool_result contents (string or text blocks). */
export declare function contentTexts(content: MessagesRequest['messages'][number]['content']): string[];
/** Live processes whose command line contains `needle` (Linux /proc; zombies left out). */
export declare function processesWith(needle: string): string[];
