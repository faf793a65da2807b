import Foundation
import KiwiLogging
import KiwiModels
import KiwiStrictJSON
import Logging
import Synchronization
import Testing

@Suite("JSON log lines")
struct JSONLogHandlerTests {
    /// Collects what a handler writes.
    final class Capture: Sendable {
        let lines = Mutex<[String]>([])
        var output: JSONLineOutput { JSONLineOutput { line in self.lines.withLock { $0.append(line) } } }
    }

    @Test("each entry is one JSON object with timestamp, level, message and metadata")
    func writesOneObjectPerLine() throws {
        let capture = Capture()
        var logger = Logger(label: "test") { _ in JSONLogHandler(logLevel: .info, output: capture.output) }
        logger[metadataKey: "service"] = "kiwi-gateway"
        logger.info("request done", metadata: ["requestId": "r-1", "statusCode": .stringConvertible(200), "path": "/v1/quota"])

        let lines = capture.lines.withLock { $0 }
        #expect(lines.count == 1)
        #expect(!lines[0].contains("\n"))
        guard case .object(let object) = try StrictJSONParser().parse(lines[0]) else {
            Issue.record("not a JSON object")
            return
        }
        #expect(object.keys.prefix(3) == ["timestamp", "level", "message"])
        #expect(object["level"] == .string("info"))
        #expect(object["message"] == .string("request done"))
        #expect(object["requestId"] == .string("r-1"))
        #expect(object["statusCode"] == .number(JSONNumber(200)))
        #expect(object["service"] == .string("kiwi-gateway"))
        guard case .string(let timestamp) = object["timestamp"] else {
            Issue.record("no timestamp")
            return
        }
        #expect(timestamp.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
    }

    @Test("entries below the configured level are not written")
    func respectsLevel() {
        let capture = Capture()
        let logger = Logger(label: "test") { _ in JSONLogHandler(logLevel: .warning, output: capture.output) }
        logger.info("hidden")
        logger.error("shown")
        #expect(capture.lines.withLock { $0.count } == 1)
    }

    @Test("quotes and newlines in messages stay inside one valid line")
    func escapesText() throws {
        let capture = Capture()
        let logger = Logger(label: "test") { _ in JSONLogHandler(logLevel: .info, output: capture.output) }
        logger.info("a \"quoted\"\nsecond line")
        let line = try #require(capture.lines.withLock { $0.first })
        guard case .object(let object) = try StrictJSONParser().parse(line) else {
            Issue.record("not a JSON object")
            return
        }
        #expect(object["message"] == .string("a \"quoted\"\nsecond line"))
    }

    @Test("user ids are shortened to their first 8 characters")
    func redactsUserIDs() throws {
        let id = try #require(UUID(uuidString: "5C1A3E2B-9D4F-4A6B-8C7D-1E2F3A4B5C6D"))
        #expect(LogRedaction.userID(id) == "5c1a3e2b")
    }

    @Test("LOG_LEVEL values parse to levels and anything else is refused")
    func parsesLevels() throws {
        #expect(try Logger.Level(parsing: "DEBUG") == .debug)
        #expect(throws: LogLevelError.self) { try Logger.Level(parsing: "verbose") }
    }
}
