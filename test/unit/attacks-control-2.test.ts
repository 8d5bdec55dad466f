// unit: the control-attack suite (issue 18), part 2 of 2: the odd rows and the check-then-open races. The suite is
// test/support/attacksControlSuite.ts.
import { registerControlSuite } from '../support/attacksControlSuite';

registerControlSuite(2);
