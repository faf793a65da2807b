import AsyncHTTPClient
import Foundation
import KiwiConcurrency
import KiwiDevelopment
import KiwiJPEG
import NIOCore
import NIOHTTP1

/// One scan as the load test saw it.
struct ScanOutcome: Sendable {
    var started: ContinuousClock.Instant
    var latency: Duration
    /// The HTTP status, or nil when no response came (connection refused or reset, timeout); through the async API,
    /// 200 once the scan's `result` event came, nil when its stream ended without it.
    var status: Int?
    /// The API error code of a failed scan, or what went wrong in transport.
    var code: String?
    /// The model's time as the gateway reported it (`Server-Timing: llm;dur=…`).
    var modelTime: Duration?
    /// How long the gateway asked the client to wait before trying again (`Retry-After` on an error).
    var retryAfter: Duration?
    /// Whether the gateway refused to start the scan and said when to try again: a 503 or 429 with `Retry-After` to
    /// `POST /v1/scans`, which starts nothing it refuses. (`POST /v1/scan` answers a scan the model failed in the same
    /// way, so there it counts as a failure.)
    var refused = false
    /// When the first `ingredients` and the first `recipe` event of the scan's stream arrived, from the start of its
    /// `POST` (async API only; nil when none came).
    var ingredientsAfter: Duration?
    var firstRecipeAfter: Duration?
    /// For a plan, when its first `meal` event arrived.
    var firstMealAfter: Duration?
    /// For a receipt, when its first `line` event arrived.
    var firstLineAfter: Duration?
    /// How many `restart` events the scan's stream carried.
    var restarts = 0
    /// The scan's path (`Location`), once the async API started it.
    var location: String?

    var succeeded: Bool { status == 200 }
}

/// A photo scan that succeeded, for a refinement to refine: its person, its path and its ingredients' names.
struct RefinableScan: Sendable {
    var token: String
    var location: String
    var ingredients: [String]
}

/// Scans generated photos of one size, cycling through a few so the stub's answers vary: with one blocking
/// `POST /v1/scan`, or (``async``) with `POST /v1/scans` and then the scan's event stream until its outcome. With
/// several gateways the scans take turns over them, and each scan's event stream goes through the next one, as a
/// load balancer that spreads requests may well send it.
struct ScanClient: Sendable {
    let gateways: [String]
    let client: HTTPClient
    let timeout: TimeAmount
    /// Whether scans go through the async API.
    let async: Bool
    /// Whether each "scan" asks for a meal plan of ``planDays`` dinners instead (`POST /v1/plans`, through the async API).
    var plans = false
    /// The days of each plan: a week.
    static let planDays = 7
    private let bodies: [ByteBuffer]
    private static let contentType = MultipartUpload.envelope().contentType

    init(
        gateways: [String],
        client: HTTPClient,
        imageSize: Int,
        timeout: TimeAmount,
        async: Bool = false,
        plans: Bool = false,
        receipts: Bool = false
    ) {
        self.gateways = gateways
        self.client = client
        self.timeout = timeout
        self.async = async
        self.plans = plans
        // A receipt's photo is sent with `mode=receipt`, through the async API.
        let fields = receipts ? [(name: "mode", value: "receipt")] : []
        bodies = (0..<8).map { seed in
            let photo = SyntheticJPEG.make(size: imageSize, seed: UInt64(seed))
            return ByteBuffer(bytes: MultipartUpload.make(photos: [photo], fields: fields).body)
        }
    }

    /// One scan with the `index`-th photo (modulo the few there are).
    func scan(token: String, index: Int) async -> ScanOutcome {
        if plans {
            var request = HTTPClientRequest(url: "\(gateway(index))/v1/plans")
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: #"{"days": \#(Self.planDays), "meals": ["dinner"]}"#))
            return await followedScan(request, token: token, eventsThrough: gateway(index + 1))
        }
        return async
            ? await followedScan(upload(to: "/v1/scans", token: token, index: index), token: token, eventsThrough: gateway(index + 1))
            : await blockingScan(token: token, index: index)
    }

    /// A refinement of `parent` with its ingredients' names (`POST /v1/scans/{id}/refinements`), followed through its
    /// event stream as an async scan is.
    func refine(_ parent: RefinableScan) async -> ScanOutcome {
        var request = HTTPClientRequest(url: "\(gateway(0))\(parent.location)/refinements")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(parent.token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        struct Body: Encodable { var ingredients: [String] }
        request.body = .bytes(ByteBuffer(bytes: (try? JSONEncoder().encode(Body(ingredients: parent.ingredients))) ?? Data()))
        return await followedScan(request, token: parent.token, eventsThrough: gateway(0))
    }

    /// A photo scan through the async API as `token`'s person, to refine later: nil when it did not succeed.
    func refinable(token: String, index: Int) async -> RefinableScan? {
        let outcome = await scan(token: token, index: index)
        guard outcome.succeeded, let location = outcome.location else { return nil }
        struct Scan: Decodable {
            struct Result: Decodable {
                struct Ingredient: Decodable { var name: String }
                var ingredients: [Ingredient]
            }
            var result: Result?
        }
        var request = HTTPClientRequest(url: "\(gateway(0))\(location)")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        guard let response = try? await client.execute(request, timeout: timeout), response.status == .ok,
            let body = try? await response.body.collect(upTo: 1 << 20),
            let names = (try? JSONDecoder().decode(Scan.self, from: Data(body.readableBytesView)))?.result?.ingredients.map(\.name),
            !names.isEmpty
        else { return nil }
        return RefinableScan(token: token, location: location, ingredients: Array(names.prefix(40)))
    }

    private func blockingScan(token: String, index: Int) async -> ScanOutcome {
        let request = upload(to: "/v1/scan", token: token, index: index)
        let started = ContinuousClock.now
        do {
            let response = try await client.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: 1 << 20)
            let status = Int(response.status.code)
            return ScanOutcome(
                started: started,
                latency: .now - started,
                status: status,
                code: status == 200 ? nil : Self.errorCode(in: body) ?? "http_\(status)",
                modelTime: response.headers.first(name: "Server-Timing").flatMap(Self.modelTime(inServerTiming:)),
                retryAfter: status == 200 ? nil : Self.retryAfter(response.headers)
            )
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            return ScanOutcome(started: started, latency: .now - started, code: "client_timeout")
        } catch {
            return ScanOutcome(started: started, latency: .now - started, code: Self.transportError(error))
        }
    }

    /// `request` (`POST /v1/scans` or a refinement), then `GET /v1/scans/{id}/events` through `eventsGateway` until the `result` or `error`
    /// event, which ends the stream. A success counts as 200; a failed scan as its error's code. A stream refused with
    /// 503 is opened again after its `Retry-After` (1 s without one) until the deadline, as a client following its
    /// scan would: the scan goes on without it. The arrivals of the first `ingredients` and `recipe` events are timed
    /// as each chunk comes. The model's time is not reported on this path.
    private func followedScan(_ request: HTTPClientRequest, token: String, eventsThrough eventsGateway: String) async -> ScanOutcome {
        let started = ContinuousClock.now
        let deadline = NIODeadline.now() + timeout
        do {
            let created = try await client.execute(request, deadline: deadline)
            let body = try await created.body.collect(upTo: 1 << 20)
            let status = Int(created.status.code)
            guard status == 202 || status == 200, let location = created.headers.first(name: "Location") else {
                let retryAfter = Self.retryAfter(created.headers)
                return ScanOutcome(
                    started: started,
                    latency: .now - started,
                    status: status,
                    code: Self.errorCode(in: body) ?? "http_\(status)",
                    retryAfter: retryAfter,
                    refused: retryAfter != nil && (status == 503 || status == 429)
                )
            }
            // A plan's events are its scan's, of the same id.
            let scanPath = location.replacingOccurrences(of: "/v1/plans/", with: "/v1/scans/")
            var events = HTTPClientRequest(url: "\(eventsGateway)\(scanPath)/events")
            events.headers.add(name: "Authorization", value: "Bearer \(token)")
            var stream = try await client.execute(events, deadline: deadline)
            while stream.status == .serviceUnavailable {
                _ = try await stream.body.collect(upTo: 1 << 20)
                try await sleep(for: Self.retryAfter(stream.headers) ?? .seconds(1))
                stream = try await client.execute(events, deadline: deadline)
            }
            // The stream's 200 says only that it opened: the scan succeeded when its `result` event came.
            var outcome = ScanOutcome(
                started: started,
                latency: .zero,
                status: stream.status == .ok ? nil : Int(stream.status.code),
                location: location
            )
            var reader = EventNameReader()
            var text = ByteBuffer()
            for try await chunk in stream.body {
                let arrived = ContinuousClock.now - started
                for name in reader.names(in: chunk.readableBytesView) {
                    switch name {
                    case "ingredients": outcome.ingredientsAfter = outcome.ingredientsAfter ?? arrived
                    case "recipe": outcome.firstRecipeAfter = outcome.firstRecipeAfter ?? arrived
                    case "meal": outcome.firstMealAfter = outcome.firstMealAfter ?? arrived
                    case "line": outcome.firstLineAfter = outcome.firstLineAfter ?? arrived
                    case "restart": outcome.restarts += 1
                    case "result": outcome.status = 200
                    default: break
                    }
                }
                guard text.readableBytes + chunk.readableBytes <= Self.longestStream else { throw NIOTooManyBytesError(maxBytes: Self.longestStream) }
                text.writeImmutableBuffer(chunk)
            }
            outcome.latency = .now - started
            guard !outcome.succeeded else { return outcome }
            // A failed scan's code is in its `error` event's data: the stream is read as text only then.
            let whole = String(buffer: text)
            let code = whole.range(of: "event: error\ndata: ").flatMap { found in
                Self.errorCode(inScan: whole[found.upperBound...].prefix { $0 != "\n" })
            }
            outcome.code = code ?? "stream_ended"
            return outcome
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            return ScanOutcome(started: started, latency: .now - started, code: "client_timeout")
        } catch {
            return ScanOutcome(started: started, latency: .now - started, code: Self.transportError(error))
        }
    }

    /// The base URL of the `index`-th scan's gateway (modulo how many there are).
    private func gateway(_ index: Int) -> String {
        gateways[index % gateways.count]
    }

    /// The most of one scan's event stream that is read.
    private static let longestStream = 4 << 20

    /// The `error.error` of a scan resource's JSON.
    static func errorCode(inScan json: Substring) -> String? {
        struct Scan: Decodable {
            struct Failure: Decodable { var error: String }
            var error: Failure?
        }
        return try? JSONDecoder().decode(Scan.self, from: Data(json.utf8)).error?.error
    }

    /// A `POST` of the `index`-th photo (modulo the few there are) to `path`, as the multipart field `image`.
    private func upload(to path: String, token: String, index: Int) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: "\(gateway(index))\(path)")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: Self.contentType)
        request.body = .bytes(bodies[index % bodies.count])
        return request
    }

    /// A failure below HTTP, named by its kind (`transport_error: HTTPClientError.connectTimeout`, a `ChannelError`'s
    /// case, or an `IOError` with its errno), so that a report tells a gateway that closed connections from one that
    /// never accepted them. Other errors are named by their type: their text may hold addresses, one line each.
    static func transportError(_ error: any Error) -> String {
        let named = error is HTTPClientError || error is IOError || error is ChannelError
        return "transport_error: " + (named ? String(reflecting: error) : String(reflecting: type(of: error)))
    }

    /// `error` of the API's error shape.
    static func errorCode(in body: ByteBuffer) -> String? {
        struct ErrorBody: Decodable { var error: String }
        return try? JSONDecoder().decode(ErrorBody.self, from: Data(body.readableBytesView)).error
    }

    /// `Retry-After` in whole seconds (the form the gateway sends), or nil.
    static func retryAfter(_ headers: HTTPHeaders) -> Duration? {
        headers.first(name: "Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 >= 0 ? .seconds($0) : nil }
    }

    /// The `dur` of the `llm` metric in a `Server-Timing` header, e.g. `llm;dur=2003.5`.
    static func modelTime(inServerTiming header: String) -> Duration? {
        for metric in header.split(separator: ",") {
            let parts = metric.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.first == "llm", let duration = parts.dropFirst().first(where: { $0.hasPrefix("dur=") }),
                let milliseconds = Double(duration.dropFirst(4)), milliseconds.isFinite, milliseconds >= 0
            else { continue }
            return .milliseconds(milliseconds)
        }
        return nil
    }
}
