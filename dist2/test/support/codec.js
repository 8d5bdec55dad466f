"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ScramblingCodec = exports.SCRAMBLED_ENCODING = void 0;
const proto_1 = require("@temporalio/proto");
exports.SCRAMBLED_ENCODING = 'binary/x-durable-agent-test-xor';
const KEY = 0x5a;
const xor = (bytes) => Uint8Array.from(bytes, (b) => b ^ KEY);
class ScramblingCodec {
    /** How many payloads this codec decoded (the test checks the audit used it). */
    decoded = 0;
    async encode(payloads) {
        return payloads.map((p) => ({
            metadata: { encoding: new TextEncoder().encode(exports.SCRAMBLED_ENCODING) },
            data: xor(proto_1.temporal.api.common.v1.Payload.encode(p).finish()),
        }));
    }
    async decode(payloads) {
        return payloads.map((p) => {
            const encoding = p.metadata?.encoding ? new TextDecoder().decode(p.metadata.encoding) : '';
            if (encoding !== exports.SCRAMBLED_ENCODING || !p.data)
                return p;
            this.decoded++;
            return proto_1.temporal.api.common.v1.Payload.decode(xor(p.data));
        });
    }
}
exports.ScramblingCodec = ScramblingCodec;
//# sourceMappingURL=codec.js.map