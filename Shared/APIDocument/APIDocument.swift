import Crypto
import Foundation
import KiwiModels
import Yams

/// The public API's OpenAPI document (`openapi.yaml` beside this file, which the Swift client is generated from), as
/// the gateway serves it at `GET /openapi.yaml` and `GET /openapi.json`. Built into the binary, so the served
/// document is always the one this build implements.
public enum APIDocument {
    /// The document as written, in YAML.
    public static let yaml: [UInt8] = PackageResources.openapi_yaml

    /// The same document in JSON (keys sorted), converted once.
    public static let json: [UInt8] = {
        do {
            let object = try Yams.load(yaml: String(decoding: yaml, as: UTF8.self)) ?? [:]
            return Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
        } catch {
            // The document is part of this build and a test reads it back: it cannot be unreadable at run time.
            fatalError("openapi.yaml is not a JSON-compatible YAML document: \(error)")
        }
    }()

    /// A strong validator for both forms: the YAML text's SHA-256, quoted as `ETag` requires.
    public static let entityTag = "\"" + SHA256.hash(data: yaml).prefix(16).hexEncodedString + "\""
}
