import Logging

extension Logger.Level {
    /// Parses a `LOG_LEVEL` value (`trace`, `debug`, `info`, `notice`, `warning`, `error`, `critical`).
    public init(parsing text: String) throws(LogLevelError) {
        guard let level = Logger.Level(rawValue: text.lowercased()) else { throw LogLevelError() }
        self = level
    }
}

/// A `LOG_LEVEL` value that names no level.
public struct LogLevelError: Error, CustomStringConvertible {
    public var description: String {
        "must be one of " + Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
    }
}
