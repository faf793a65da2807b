import KiwiScans
import Logging

/// The pipeline's route-choosing step: the routes of `LLM_MODELS` tried in order, each until it answers or gives way
/// (its retries spent, its breaker open, its probe failed), the next one then taking over. When none answers the
/// scan fails `llm_unavailable`, with the soonest time any route might answer again.
struct RouteFallback: Sendable {
    /// The routes, in the order they are tried; never empty.
    let routes: [ModelRoute]

    /// A completion and the route that gave it.
    struct Answered {
        var success: ChatCompletionsClient.Success
        var route: ModelRoute
    }

    /// The first completion `call` gets from a route, each route called with a logger that names it.
    func completion(logger: Logger, calling call: (ModelRoute, Logger) async -> RouteCallResult) async -> Result<Answered, ScanFailure> {
        var soonest: Duration?
        for route in routes {
            var routeLogger = logger
            routeLogger[metadataKey: "route"] = .string(route.name)
            let isLast = route.name == routes.last?.name
            switch await call(route, routeLogger) {
            case .answered(let success):
                return .success(Answered(success: success, route: route))
            case .ended(let failure):
                return .failure(failure)
            case .gaveWay(let retryAfter, let timedOut):
                // A route that timed out with time left still gives way: the next one may be faster. The last has none.
                if timedOut, isLast { return .failure(.modelCallTimeout) }
                if let retryAfter { soonest = min(soonest ?? retryAfter, retryAfter) }
                if !isLast { routeLogger.info("falling back to the next model route") }
            }
        }
        let seconds = soonest.map { max(1, Int(($0 / .seconds(1)).rounded(.up))) }
        return .failure(ScanFailure(.llmUnavailable, "The recipe service is unavailable; please try again later.", retryAfterSeconds: seconds))
    }
}
