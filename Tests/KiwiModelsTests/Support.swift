import Foundation
import KiwiModels
import KiwiTestSupport
import Testing

/// Loads a fixture file from this target's `Fixtures` folder.
func fixture(_ name: String) throws -> Data {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
    return try Data(contentsOf: url)
}

/// Parses JSON text that the test itself wrote.
func json(_ text: String) throws -> JSONValue {
    try StrictJSONParser().parse(text)
}

/// Returns the valid fixture with one edit applied at a path such as `recipes.0.steps`.
func validAnswer(setting path: String, to value: JSONValue?) throws -> JSONValue {
    var document = try StrictJSONParser().parse(try fixture("valid-scan-response.json"))
    document.set(path.split(separator: ".").map(String.init), to: value)
    return document
}

/// The violations the contract finds in a document.
func violations(_ document: JSONValue) -> [JSONViolation] {
    ScanResponseContract.scanResponse.violations(of: document)
}

/// A string of `count` copies of `character`.
func text(_ count: Int, of character: Character = "a") -> JSONValue {
    .string(String(repeating: character, count: count))
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue {
    /// The value with every `id` member removed: what the model writes.
    var withoutIDs: JSONValue {
        switch self {
        case .object(let object):
            var stripped = JSONObject()
            for (key, value) in object.members where key != "id" { stripped[key] = value.withoutIDs }
            return .object(stripped)
        case .array(let elements):
            return .array(elements.map(\.withoutIDs))
        default:
            return self
        }
    }
}
