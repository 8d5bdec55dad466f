"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the control-attack suite (issue 18), part 1 of 2: the table checks, the bash-itself control and the even rows. The suite is
// test/support/attacksControlSuite.ts.
const attacksControlSuite_1 = require("../support/attacksControlSuite");
(0, attacksControlSuite_1.registerControlSuite)(1);
//# sourceMappingURL=attacks-control.test.js.map