import Foundation
import KiwiDevelopment
import KiwiTestSupport
import Testing

/// Distributed tracing (docs/architecture.md, "Traces"): one scan is one trace across the three services, and their logs join it.
@Suite("Distributed tracing", .serialized, .timeLimit(.minutes(3)))
struct TracingTests {
    /// Runs a sign-in and one scan through the three services exporting to a local receiver, and returns the spans
    /// of the scan's trace with the trace id, and each service's log lines.
    func scanTrace() async throws -> (trace: [OTLPReceiver.ReceivedSpan], traceID: String, logs: [String: String]) {
        let receiver = OTLPReceiver()
        return try await receiver.serving { endpoint in
            let environment = [
                "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint.absoluteString, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
                "OTEL_BSP_SCHEDULE_DELAY": "100",
            ]
            let rig = try await SystemRig.run(environment: environment) { rig in
                let token = try await rig.signIn()
                let scan = try await rig.scan(SyntheticJPEG.make(size: 24 * 1024, seed: 5), token: token)
                try #require(scan.status == 200)
                return rig
            }
            let spans = try await receiver.spans(until: { spans in
                Set(spans.filter { $0.name == "process scan job" || $0.name == "POST /v1/scan" || $0.name.hasSuffix("/introspect") }.map(\.name))
                    .count == 3
            })
            let root = try #require(spans.first { $0.name == "POST /v1/scan" && $0.service == "kiwi-gateway" }, "no span for the scan request")
            let logs = rig.processes.mapValues { $0.capturedOutput() }
            return (spans.filter { $0.traceID == root.traceID }, root.traceID, logs)
        }
    }

    @Test("the spans of one scan, from the gateway, auth and the worker, form one trace rooted at the gateway's request")
    func oneTrace() async throws {
        let (trace, _, _) = try await scanTrace()
        #expect(Set(trace.map(\.service)) == ["kiwi-gateway", "kiwi-auth", "kiwi-scan-worker"])
        for name in [
            "POST /v1/scan", "scan ledger used", "scan ledger reserve", "scan ledger find", "auth introspect", "publish kiwi", "process scan job",
            "scan start", "model call", "validate model answer", "scan succeed",
        ] {
            #expect(trace.contains { $0.name.hasPrefix(name) }, "no \(name) span in the trace: \(trace.map(\.name))")
        }
        #expect(trace.contains { $0.service == "kiwi-auth" && $0.name == "POST /internal/v1/sessions/introspect" })
        let ids = Set(trace.map(\.spanID))
        let roots = trace.filter { $0.parentSpanID == nil }
        #expect(roots.map(\.name) == ["POST /v1/scan"], "one root, the gateway's request")
        for span in trace where span.parentSpanID != nil {
            #expect(ids.contains(span.parentSpanID!), "\(span.service) \(span.name) hangs off a span outside the trace")
        }
    }

    @Test("the worker's span continues the gateway's publish, and auth's continues the gateway's call to it")
    func parentsCrossServices() async throws {
        let (trace, _, _) = try await scanTrace()
        let byID = Dictionary(trace.map { ($0.spanID, $0) }) { first, _ in first }
        let job = try #require(trace.first { $0.name == "process scan job" })
        #expect(job.parentSpanID.flatMap { byID[$0] }.map { $0.service == "kiwi-gateway" && $0.name.hasPrefix("publish ") } == true)
        let introspection = try #require(trace.first { $0.service == "kiwi-auth" && $0.name.hasSuffix("/introspect") })
        #expect(introspection.parentSpanID.flatMap { byID[$0] }.map { $0.service == "kiwi-gateway" && $0.name == "auth introspect" } == true)
    }

    @Test("log lines written during the scan carry its trace id in every service")
    func logsCarryTheTraceID() async throws {
        let (_, traceID, output) = try await scanTrace()
        let logs = output.mapValues { text in
            text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        let gatewayAccess = logs["kiwi-gateway-0"]?.first { $0["message"] as? String == "request" && $0["path"] as? String == "/v1/scan" }
        #expect(gatewayAccess?["traceId"] as? String == traceID)
        let authAccess = logs["kiwi-auth"]?.first {
            $0["message"] as? String == "request" && ($0["path"] as? String)?.hasSuffix("/introspect") == true
        }
        #expect(authAccess?["traceId"] as? String == traceID)
        let answered = logs["kiwi-scan-worker"]?.first { $0["message"] as? String == "scan job answered" }
        #expect(answered?["traceId"] as? String == traceID)
        let started = logs["kiwi-gateway-0"]?.first { ($0["message"] as? String)?.hasPrefix("starting") == true }
        #expect(started?["traceId"] == nil, "a line written outside any request has no trace")
        #expect(started?["tracing"] as? String == "otlp")
    }
}
