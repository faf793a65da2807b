import CoreMetrics
import Logging

/// One way to reach a model (`LLM_MODELS`): its prompt (which names the model), the client for its endpoint and key,
/// and its circuit breaker in this worker. A scan tries the routes in order (``RouteFallback``).
struct ModelRoute: Sendable {
    let name: String
    let prompt: ScanPrompt
    let client: ChatCompletionsClient
    let breaker: CircuitBreaker

    var model: String { prompt.model }

    /// The route `settings` describe, its breaker's state exported as `kiwi_llm_breaker_state{route}` and its changes
    /// counted in `kiwi_llm_breaker_transitions_total{route,to}` and logged. `stream`: whether it asks for streamed
    /// answers, silent for at most `streamIdleTimeout`.
    init(
        _ settings: ModelRouteSettings,
        detail: ImageDetail,
        stream: Bool = true,
        streamIdleTimeout: Duration = .seconds(20),
        breaker: CircuitBreaker.Settings,
        transport: ChatCompletionsTransport,
        logger: Logger
    ) {
        name = settings.name
        prompt = ScanPrompt(model: settings.model, detail: detail, stream: stream)
        client = ChatCompletionsClient(
            transport: transport,
            baseURL: settings.baseURL,
            apiKey: settings.apiKey,
            streamIdleTimeout: streamIdleTimeout
        )
        let gauge = Gauge(label: "kiwi_llm_breaker_state", dimensions: [("route", settings.name)])
        gauge.record(CircuitBreaker.State.closed.gaugeValue)
        self.breaker = CircuitBreaker(settings: breaker) { [name = settings.name] from, to in
            gauge.record(to.gaugeValue)
            Counter(label: "kiwi_llm_breaker_transitions_total", dimensions: [("route", name), ("to", to.rawValue)]).increment()
            let metadata: Logger.Metadata = ["route": .string(name), "from": .string(from.rawValue), "to": .string(to.rawValue)]
            if to == .open {
                logger.warning("model route's circuit breaker opened: calls skip it until its cool-down ends", metadata: metadata)
            } else {
                logger.info("model route's circuit breaker changed", metadata: metadata)
            }
        }
    }
}
