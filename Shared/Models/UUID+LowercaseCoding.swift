import Foundation

/// Every UUID this module's models encode is written in lower case (`8c1f…`), the form the services generate and
/// most clients expect; Foundation's own `UUID` encoding is upper case. Decoding accepts either case, as `UUID` does.
///
/// Synthesized `Encodable` conformances in this module call these overloads: they are more specific than the
/// generic `encode(_:forKey:)`.
extension KeyedEncodingContainer {
    mutating func encode(_ value: UUID, forKey key: Key) throws {
        try encode(value.uuidString.lowercased(), forKey: key)
    }

    mutating func encodeIfPresent(_ value: UUID?, forKey key: Key) throws {
        try encodeIfPresent(value?.uuidString.lowercased(), forKey: key)
    }
}
