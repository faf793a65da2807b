import Foundation

/// A JSON document as parsed, with what a strict validator needs that `JSONDecoder` hides:
/// the exact number lexeme (so `12` and `12.0` differ), key order, and no silently merged duplicate keys.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number, with the text it was written as.
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The name of this value's JSON type, as used in messages (`"string"`, `"null"`, …).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number(let number): number.isInteger ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A JSON number: its source text and its value as a `Double`.
public struct JSONNumber: Hashable, Sendable {
    /// The number exactly as written, e.g. `"12"`, `"0.95"`, `"1e3"`.
    public let text: String
    public let value: Double

    /// True when written without a fraction or exponent (`12`, `-3`), which is what "an integer" means here.
    public var isInteger: Bool { !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) }

    public init(text: String, value: Double) {
        self.text = text
        self.value = value
    }

    public init(_ value: Int) {
        self.init(text: String(value), value: Double(value))
    }

    public init(_ value: Double) {
        self.init(text: "\(value)", value: value)
    }
}

/// A JSON object that keeps its keys in order (the order matters for a schema sent to a model).
public struct JSONObject: Hashable, Sendable {
    public private(set) var keys: [String] = []
    private var values: [String: JSONValue] = [:]

    public init() {}

    public init(_ pairs: KeyValuePairs<String, JSONValue>) {
        for (key, value) in pairs { self[key] = value }
    }

    public subscript(key: String) -> JSONValue? {
        get { values[key] }
        set {
            if values[key] == nil, newValue != nil { keys.append(key) }
            if newValue == nil { keys.removeAll { $0 == key } }
            values[key] = newValue
        }
    }

    /// The members in their order.
    public var members: [(key: String, value: JSONValue)] {
        keys.map { ($0, values[$0]!) }
    }
}

extension JSONValue {
    /// Compact JSON text for this value, members in their order.
    public func serialized() -> String {
        String(decoding: serializedUTF8(), as: UTF8.self)
    }

    /// ``serialized()`` as its UTF-8 bytes: what a hash or a request body takes, written without a `String` between.
    public func serializedUTF8() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output)
        return output
    }

    private func write(to output: inout [UInt8]) {
        switch self {
        case .null: output += "null".utf8
        case .bool(let value): output += (value ? "true" : "false").utf8
        case .number(let number): output += number.text.utf8
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// `value` quoted, with `"`, `\` and the control characters escaped; runs that need no escape are copied whole.
    private static func writeString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var run = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                output += bytes[run..<index]
                run = index + 1
                switch byte {
                case UInt8(ascii: "\""): output += #"\""#.utf8
                case UInt8(ascii: "\\"): output += #"\\"#.utf8
                case UInt8(ascii: "\n"): output += #"\n"#.utf8
                case UInt8(ascii: "\r"): output += #"\r"#.utf8
                case UInt8(ascii: "\t"): output += #"\t"#.utf8
                default: output += #"\u00"#.utf8 + [Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0x0F)]]
                }
            }
            output += bytes[run...]
        }
        output.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
