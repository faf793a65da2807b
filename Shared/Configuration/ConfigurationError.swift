/// Why a service cannot start with its environment: every missing variable and every invalid value.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A variable whose value could not be used, and why.
    public struct InvalidValue: Hashable, Sendable {
        public let name: String
        public let reason: String

        public init(name: String, reason: String) {
            self.name = name
            self.reason = reason
        }
    }

    /// The reason a parser gives for refusing a value; shown to the operator as is.
    public struct Reason: Error {
        public let text: String

        public init(_ text: String) {
            self.text = text
        }
    }

    /// Names of required variables that are unset or empty, in the order they were read.
    public let missing: [String]
    public let invalid: [InvalidValue]

    public init(missing: [String], invalid: [InvalidValue]) {
        self.missing = missing
        self.invalid = invalid
    }

    public var description: String {
        var parts: [String] = []
        if !missing.isEmpty { parts.append("missing required environment variables: \(missing.joined(separator: ", "))") }
        for value in invalid { parts.append("\(value.name) \(value.reason)") }
        return parts.joined(separator: "; ")
    }
}
