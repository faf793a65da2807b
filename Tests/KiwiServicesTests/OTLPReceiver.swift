import Foundation
import Hummingbird
import HummingbirdTesting
import KiwiModels
import Logging
import Synchronization
import Testing

/// An OpenTelemetry collector stand-in: an OTLP/HTTP receiver (JSON encoding, `POST /v1/traces`) on a port of its own,
/// keeping every span exported to it.
final class OTLPReceiver: Sendable {
    /// One received span; ids as the OTLP JSON encoding sends them.
    struct ReceivedSpan: Sendable, Hashable {
        var service: String
        var name: String
        var traceID: String
        var spanID: String
        var parentSpanID: String?
    }

    private let received = Mutex<[ReceivedSpan]>([])

    /// Every span received so far.
    var spans: [ReceivedSpan] { received.withLock { $0 } }

    /// Serves while `body` runs, passing it the endpoint to give services as `OTEL_EXPORTER_OTLP_ENDPOINT`.
    func serving<Result: Sendable>(_ body: @Sendable (URL) async throws -> Result) async throws -> Result {
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            let export = try await request.body.collect(upTo: 16 << 20)
            let spans = try Self.spans(in: Data(export.readableBytesView))
            self.received.withLock { $0.append(contentsOf: spans) }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
        }
        let result = Mutex<Result?>(nil)
        var logger = Logger(label: "test.otlp-receiver")
        logger.logLevel = .critical
        try await Application(router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)), logger: logger)
            .test(.live) { client in
                let endpoint = URL(string: "http://127.0.0.1:\(client.port!)")!
                let value = try await body(endpoint)
                result.withLock { $0 = value }
            }
        return try result.withLock { try #require($0) }
    }

    /// Waits up to `timeout` for the received spans to satisfy `condition`, and returns them.
    func spans(until condition: ([ReceivedSpan]) -> Bool, timeout: Duration = .seconds(20)) async throws -> [ReceivedSpan] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(spans) { return spans }
            try await Task.sleep(for: .milliseconds(100))
        }
        return spans
    }

    /// The spans of an `ExportTraceServiceRequest` in OTLP's JSON encoding.
    static func spans(in export: Data) throws -> [ReceivedSpan] {
        let request = try #require(try JSONSerialization.jsonObject(with: export) as? [String: Any])
        var spans: [ReceivedSpan] = []
        for resourceSpans in request["resourceSpans"] as? [[String: Any]] ?? [] {
            let attributes = (resourceSpans["resource"] as? [String: Any])?["attributes"] as? [[String: Any]] ?? []
            let service =
                attributes.first { $0["key"] as? String == "service.name" }
                .flatMap { ($0["value"] as? [String: Any])?["stringValue"] as? String } ?? "?"
            for scopeSpans in resourceSpans["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scopeSpans["spans"] as? [[String: Any]] ?? [] {
                    let parent = (span["parentSpanId"] as? String).flatMap { $0.isEmpty ? nil : $0 }
                    spans.append(
                        ReceivedSpan(
                            service: service,
                            name: span["name"] as? String ?? "",
                            traceID: try Self.hex(span["traceId"]),
                            spanID: try Self.hex(span["spanId"]),
                            parentSpanID: try parent.map { try Self.hex($0) }
                        )
                    )
                }
            }
        }
        return spans
    }

    /// An id as lowercase hex, as logs and `traceparent` write it: the OTLP JSON encoding of swift-protobuf sends
    /// bytes as base64, the OTLP specification asks for hex; both are read.
    static func hex(_ value: Any?) throws -> String {
        let text = try #require(value as? String)
        if text.count == 32 || text.count == 16, text.allSatisfy(\.isHexDigit) { return text.lowercased() }
        let bytes = try #require(Data(base64Encoded: text))
        return bytes.hexEncodedString
    }
}
