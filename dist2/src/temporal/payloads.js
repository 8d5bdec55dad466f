"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.converterOf = converterOf;
exports.decodePayload = decodePayload;
function converterOf(client) {
    return client.options.loadedDataConverter;
}
async function decodePayload(converter, payload) {
    let decoded = [payload];
    for (const codec of [...converter.payloadCodecs].reverse())
        decoded = await codec.decode(decoded);
    return converter.payloadConverter.fromPayload(decoded[0]);
}
//# sourceMappingURL=payloads.js.map