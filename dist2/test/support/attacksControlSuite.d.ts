/**
 * The suite in two parts, two test files that run side by side (one file took over the runner's
 * 300 s per-file limit on a loaded machine): part 1 the table checks, the bash-itself control and
 * the even rows; part 2 the odd rows and the check-then-open races.
 */
export declare function registerControlSuite(part: 1 | 2): void;
