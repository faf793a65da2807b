import Configuration
import Foundation
import Synchronization

/// Reads a service's settings from environment variables and collects every problem — each
/// missing required variable, each unparseable value — so start-up can report them all at once.
///
/// Getters never throw: a missing or invalid value is recorded and a fallback returned. Call
/// ``finish(_:)`` last; it throws unless every value was good, so fallbacks never reach a service.
public struct EnvironmentReader {
    private let reader: ConfigReader
    private var missing: [String] = []
    private var invalid: [ConfigurationError.InvalidValue] = []

    /// Reads from the given variables (the process environment by default).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.reader = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment))
    }

    /// The value of an optional variable; an empty value counts as unset.
    public func optional(_ name: String, secret: Bool = false) -> String? {
        Self.namesRead?.record(name)
        guard let value = reader.string(forKey: ConfigKey(name), isSecret: secret), !value.isEmpty else { return nil }
        return value
    }

    /// The value of a variable with a default.
    public func string(_ name: String, default defaultValue: String) -> String {
        optional(name) ?? defaultValue
    }

    /// The value of a required variable, or `nil` (recorded as missing) when unset or empty.
    public mutating func required(_ name: String, secret: Bool = false) -> String? {
        guard let value = optional(name, secret: secret) else {
            missing.append(name)
            return nil
        }
        return value
    }

    /// A required variable turned into a typed value; a value that does not parse is recorded with the reason.
    public mutating func required<Value>(
        _ name: String,
        secret: Bool = false,
        parse: (String) throws -> Value
    ) -> Value? {
        guard let text = required(name, secret: secret) else { return nil }
        return parsed(name, text, parse)
    }

    /// A variable with a default, turned into a typed value; a value that does not parse is recorded with the reason.
    public mutating func value<Value>(_ name: String, default defaultValue: Value, parse: (String) throws -> Value) -> Value {
        guard let text = optional(name) else { return defaultValue }
        return parsed(name, text, parse) ?? defaultValue
    }

    /// Records that `name`, read already, is invalid for `reason`: for rules that span several variables.
    public mutating func reject(_ name: String, _ reason: String) {
        invalid.append(.init(name: name, reason: reason))
    }

    /// A whole number with a default, which must lie in `range`.
    public mutating func int(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) -> Int {
        value(name, default: defaultValue) { text in
            guard let number = Int(text), range.contains(number) else {
                throw ConfigurationError.Reason("must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
    }

    /// A TCP port number with a default.
    public mutating func port(_ name: String, default defaultValue: Int) -> Int {
        int(name, default: defaultValue, in: 1...65535)
    }

    /// An absolute `http` or `https` URL with a default.
    public mutating func httpURL(_ name: String, default defaultValue: URL) -> URL {
        value(name, default: defaultValue, parse: Self.httpURL(parsing:))
    }

    /// A required absolute `http` or `https` URL.
    public mutating func requiredHTTPURL(_ name: String) -> URL? {
        required(name, parse: Self.httpURL(parsing:))
    }

    /// Throws a ``ConfigurationError`` naming every missing and invalid variable read so far;
    /// otherwise returns the values passed in, now known to be present.
    public func finish<each Value>(_ values: repeat (each Value)?) throws(ConfigurationError) -> (repeat each Value) {
        guard missing.isEmpty, invalid.isEmpty else { throw ConfigurationError(missing: missing, invalid: invalid) }
        // Every required getter that returned nil recorded its variable as missing, so none is nil here.
        return (repeat (each values)!)
    }

    /// Every variable name that `read` asks for, whether set or not. Configurations read each of their variables
    /// exactly once and unconditionally, so reading an empty environment names them all: deployment files are
    /// checked against this set.
    public static func variableNames(readBy read: () -> Void) -> Set<String> {
        let names = NameRecord()
        $namesRead.withValue(names) { read() }
        return names.names
    }

    @TaskLocal private static var namesRead: NameRecord?

    private mutating func parsed<Value>(_ name: String, _ text: String, _ parse: (String) throws -> Value) -> Value? {
        do {
            return try parse(text)
        } catch {
            invalid.append(.init(name: name, reason: (error as? ConfigurationError.Reason)?.text ?? "\(error)"))
            return nil
        }
    }

    /// `text` as an absolute `http` or `https` URL, for values inside a variable (a list of URLs, say).
    public static func httpURL(parsing text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else { throw ConfigurationError.Reason("must be an absolute http or https URL") }
        return url
    }
}

/// The names an ``EnvironmentReader`` was asked for, while ``EnvironmentReader/variableNames(readBy:)`` listens.
private final class NameRecord: Sendable {
    private let state = Mutex<Set<String>>([])

    var names: Set<String> { state.withLock { $0 } }

    func record(_ name: String) {
        state.withLock { _ = $0.insert(name) }
    }
}
