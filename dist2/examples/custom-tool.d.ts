export declare const WordCount: import("../src").Tool<{
    text: string;
}, {
    words: number;
}>;
