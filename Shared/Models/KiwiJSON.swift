import Foundation

/// The JSON coders that produce and read the API's wire format: ISO 8601 UTC dates without fractional seconds.
public enum KiwiJSON {
    /// An encoder for API bodies.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    /// A decoder for API bodies.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
