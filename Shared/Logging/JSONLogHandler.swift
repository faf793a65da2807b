import Foundation
import KiwiModels
import KiwiStrictJSON
import Logging
import Synchronization

/// A swift-log handler that writes one JSON object per line: `timestamp`, `level`, `message`,
/// then the metadata (e.g. `requestId`, `method`, `path`, `statusCode`, `latencyMs`).
///
/// Only what callers put in metadata is written; keeping emails, tokens, images and full user ids
/// out of it is the callers' job (see ``LogRedaction``).
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    public var metadataProvider: Logger.MetadataProvider?
    private let output: JSONLineOutput

    /// A handler writing to `output` (standard output by default).
    public init(logLevel: Logger.Level, output: JSONLineOutput = .standardOutput, metadataProvider: Logger.MetadataProvider? = nil) {
        self.logLevel = logLevel
        self.output = output
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(
        level: Logger.Level,
        message: Logger.Message,
        metadata explicit: Logger.Metadata?,
        source: String,
        file: String,
        function: String,
        line: UInt
    ) {
        var merged = self.metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let explicit { merged.merge(explicit) { _, new in new } }

        var object = JSONObject()
        object["timestamp"] = .string(Self.timestampStyle.format(Date.now))
        object["level"] = .string(level.rawValue)
        object["message"] = .string(message.description)
        for key in merged.keys.sorted() where object[key] == nil {
            object[key] = Self.json(merged[key]!)
        }
        output.write(JSONValue.object(object).serialized())
    }

    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let convertible):
            switch convertible {
            case let number as Int: .number(JSONNumber(number))
            case let number as Double where number.isFinite: .number(JSONNumber(number))
            case let flag as Bool: .bool(flag)
            default: .string(convertible.description)
            }
        case .array(let values): .array(values.map(json))
        case .dictionary(let values):
            .object(values.keys.sorted().reduce(into: JSONObject()) { object, key in object[key] = json(values[key]!) })
        }
    }
}

/// Where JSON log lines go: one `write` per line, serialised so lines from concurrent tasks never interleave.
public final class JSONLineOutput: Sendable {
    private let sink: Mutex<@Sendable (String) -> Void>

    /// An output that hands each line (without its newline) to `write`.
    public init(_ write: @escaping @Sendable (String) -> Void) {
        self.sink = Mutex(write)
    }

    /// Standard output, the place twelve-factor services log to.
    public static let standardOutput = JSONLineOutput { line in
        // A closed or full standard output must not take the service down with it.
        try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
    }

    func write(_ line: String) {
        sink.withLock { $0(line) }
    }
}
