import Foundation
import Yams

/// A value parsed from YAML, with the few lookups the manifest checks need. A missing key, or a value of another
/// shape, reads as absent instead of trapping, so that a check fails saying what it expected.
struct YAMLValue {
    /// What Yams made of the node: `[AnyHashable: Any]`, `[Any]`, `String`, `Int`, `Double`, `Bool` or `NSNull`.
    let raw: Any?

    init(_ raw: Any?) {
        self.raw = raw
    }

    /// Every document of a YAML stream, in order; merge keys (`<<: *anchor`) are applied.
    static func documents(in text: String) throws -> [YAMLValue] {
        var sequence = try Yams.load_all(yaml: text)
        var documents: [YAMLValue] = []
        while let document = sequence.next() {
            documents.append(YAMLValue(document))
        }
        if let error = sequence.error { throw error }
        return documents
    }

    /// The value of `key` in a mapping.
    subscript(key: String) -> YAMLValue {
        YAMLValue((raw as? [AnyHashable: Any])?[key])
    }

    /// Whether there is a value at all: neither a missing key nor YAML's null.
    var exists: Bool {
        raw != nil && !(raw is NSNull)
    }

    /// The items of a sequence; empty for anything else.
    var items: [YAMLValue] {
        ((raw as? [Any]) ?? []).map(YAMLValue.init)
    }

    /// The entries of a mapping, by key; empty for anything else.
    var entries: [String: YAMLValue] {
        var entries: [String: YAMLValue] = [:]
        for (key, value) in (raw as? [AnyHashable: Any]) ?? [:] {
            if let key = key as? String { entries[key] = YAMLValue(value) }
        }
        return entries
    }

    /// A string scalar; a number or boolean is not one (Kubernetes refuses them where it wants strings).
    var string: String? {
        raw as? String
    }

    /// An integer scalar.
    var int: Int? {
        raw as? Int
    }

    /// A boolean scalar.
    var bool: Bool? {
        raw as? Bool
    }

    /// A scalar as text, as docker-compose reads `environment` values: numbers and booleans written out.
    var scalarText: String? {
        switch raw {
        case let text as String: text
        case let number as Int: String(number)
        case let number as Double: String(number)
        case let flag as Bool: String(flag)
        default: nil
        }
    }
}
