import Foundation
import Hummingbird
import NIOCore

/// The stub's admin API: what it has seen, and its behaviour, changeable at run time.
///
/// - `GET /admin/state`: the behaviour and statistics (``StubStatistics``) as JSON.
/// - `PUT /admin/behaviour`: a ``StubBehaviour`` as JSON replaces the current one; with `?scope=ID`, only for the
///   requests whose `X-Client-Request-Id` is `ID` (a Kiwi worker sends the scan's `X-Request-Id` there); with
///   `?model=NAME`, only for the requests for that model (one model route of a worker). The body may leave out any
///   field: `{"fault":"refusal","faultCount":1}` is a whole behaviour, whose other fields are those the stub started
///   with (its flags, else the built-in defaults), not those of the behaviour it replaces. An unknown field is 400.
/// - `POST /admin/reset`: forgets the statistics, keeping the behaviour.
struct AdminController: Sendable {
    let state: StubState

    func addRoutes(to group: RouterGroup<StubRequestContext>) {
        group.get("state") { _, _ in try Self.json(state.snapshot) }
        group.put("behaviour") { request, _ in
            let behaviour = try await behaviour(in: request)
            guard behaviour.faultCount.map({ $0 > 0 }) ?? true, (behaviour.faultAfter ?? 0) >= 0, behaviour.latencyMilliseconds >= 0,
                behaviour.jitterMilliseconds >= 0, behaviour.retryAfterSeconds >= 0, (behaviour.cachedPromptTokens ?? 0) >= 0
            else {
                throw HTTPError(.badRequest, message: "faultCount must be positive; faultAfter, latency, jitter and retry-after not negative")
            }
            guard behaviour.timeToFirstTokenMilliseconds >= 0, behaviour.timeToFirstTokenJitterMilliseconds >= 0, behaviour.tokensPerSecond >= 0,
                behaviour.tokensPerSecondJitter >= 0, (0...1).contains(behaviour.streamFaultAt), (behaviour.stallMilliseconds ?? 0) >= 0
            else {
                throw HTTPError(
                    .badRequest,
                    message: "streamFaultAt must be between 0 and 1; time to first token, tokensPerSecond, jitters and stall not negative"
                )
            }
            let scope = request.uri.queryParameters["scope"].map(String.init)
            let model = request.uri.queryParameters["model"].map(String.init)
            state.setBehaviour(behaviour, scope: scope, model: model)
            let snapshot = state.snapshot
            return try Self.json(
                scope.flatMap { snapshot.scopedBehaviours[$0] } ?? model.flatMap { snapshot.modelBehaviours[$0] } ?? snapshot.behaviour
            )
        }
        group.post("reset") { _, _ in
            state.reset()
            return Response(status: .noContent)
        }
    }

    /// The request's behaviour, its missing fields taken from the stub's start-up behaviour.
    private func behaviour(in request: Request) async throws -> StubBehaviour {
        let body = try await request.body.collect(upTo: 1 << 20)
        let decoder = JSONDecoder()
        decoder.userInfo[StubBehaviour.defaultsKey] = state.defaults
        do {
            return try decoder.decode(StubBehaviour.self, from: Data(body.readableBytesView))
        } catch let error as DecodingError {
            throw HTTPError(.badRequest, message: Self.describe(error))
        }
    }

    /// What is wrong with a behaviour body, in one sentence.
    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty: context.debugDescription
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        @unknown default: "The body is not a behaviour."
        }
    }

    private static func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return Response(
            status: .ok,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(value)))
        )
    }
}
