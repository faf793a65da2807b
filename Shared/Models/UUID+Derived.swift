import Crypto
import Foundation
import KiwiStrictJSON

extension UUID {
    /// A name-based UUID (RFC 9562 version 8) for an entity of a model's answer: the first 128 bits of
    /// SHA-256(`seed` ‖ `path` ‖ 0x00 ‖ the entity's compact JSON), with the version and variant bits set. The seed
    /// (the scan's id) keeps two scans' ids apart; the path and the JSON, written out again from the parsed value so
    /// that spacing does not count, make the same element at the same place get the same id in every attempt.
    init(derivingFrom seed: UUID, path: String, entity: JSONValue) {
        var hash = SHA256()
        withUnsafeBytes(of: seed.uuid) { hash.update(bufferPointer: $0) }
        hash.update(data: Array(path.utf8))
        hash.update(data: [0])
        hash.update(data: entity.serializedUTF8())
        var bytes = Array(hash.finalize().prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x80
        bytes[8] = bytes[8] & 0x3F | 0x80
        self.init(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }
}
