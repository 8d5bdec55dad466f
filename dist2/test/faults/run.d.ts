import '../support/isolatedHome';
import { type SuiteContext } from './scenarios';
import { type Size } from './report';
export declare const SIZES: Record<Size, SuiteContext['sizes']>;
