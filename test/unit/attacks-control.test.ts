// unit: the control-attack suite (issue 18), part 1 of 2: the table checks, the bash-itself control and the even rows. The suite is
// test/support/attacksControlSuite.ts.
import { registerControlSuite } from '../support/attacksControlSuite';

registerControlSuite(1);
