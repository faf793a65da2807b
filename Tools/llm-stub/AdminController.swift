import Foundation
import Hummingbird
import NIOCore

/// The stub's admin API: what it has seen, and its behaviour, changeable at run time.
///
/// - `GET /admin/state`: the behaviour and statistics (``StubStatistics``) as JSON.
/// - `PUT /admin/behaviour`: a ``StubBehaviour`` as JSON replaces the current one; with `?scope=ID`, only for the
///   requests whose `X-Client-Request-Id` is `ID` (a Kiwi worker sends the scan's `X-Request-Id` there); with
///   `?model=NAME`, only for the requests for that model (one model route of a worker).
/// - `POST /admin/reset`: forgets the statistics, keeping the behaviour.
struct AdminController: Sendable {
    let state: StubState

    func addRoutes(to group: RouterGroup<StubRequestContext>) {
        group.get("state") { _, _ in try Self.json(state.snapshot) }
        group.put("behaviour") { request, context in
            let behaviour = try await request.decode(as: StubBehaviour.self, context: context)
            guard behaviour.faultCount.map({ $0 > 0 }) ?? true, behaviour.latencyMilliseconds >= 0, behaviour.jitterMilliseconds >= 0,
                behaviour.retryAfterSeconds >= 0, (behaviour.cachedPromptTokens ?? 0) >= 0
            else { throw HTTPError(.badRequest, message: "faultCount must be positive; latency, jitter and retry-after not negative") }
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
