import AsyncHTTPClient
import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiOpenAI
import KiwiTestSupport

@testable import KiwiScanWorker

/// What the pipeline's step tests build their inputs from.
enum PipelineFixtures {
    /// A route named `name` for `model`; its endpoint, unless given, is a port nothing listens on.
    static func route(
        _ name: String,
        model: String = "gpt-4o",
        baseURL: URL = URL(string: "http://127.0.0.1:9/v1")!,
        breaker: CircuitBreaker.Settings = CircuitBreaker.Settings()
    ) -> ModelRoute {
        ModelRoute(
            ModelRouteSettings(name: name, model: model, baseURL: baseURL, apiKey: "sk-test"),
            detail: .high,
            breaker: breaker,
            transport: .over(.shared),
            logger: testLogger
        )
    }

    /// A pipeline composed as the worker composes it (`App+build.swift`): streamed answers shown to `sink`, tried on
    /// `routes` in order, each call retried up to `maxRetries` times.
    static func streamedPipeline(routes: [ModelRoute], sink: any ScanPartialSink, maxRetries: Int = 2) -> ScanPipeline {
        let metrics = WorkerMetrics()
        let calling = ChatCompletionAnswering(
            fallback: RouteFallback(routes: routes),
            call: RetryingModelCall(
                retryPolicy: RetryPolicy(maxRetries: maxRetries, initialBackoff: .milliseconds(10)),
                attemptTimeout: .seconds(20),
                rateLimits: RateLimitFeedback(intake: IntakeGovernor(concurrency: 4, logger: testLogger), route: routes[0].name),
                prices: .openAI,
                metrics: metrics
            ),
            prices: .openAI
        )
        return ScanPipeline(
            answering: StreamedAnswering(calling: calling, sink: sink),
            repair: AnswerRepair(metrics: metrics),
            profileGuard: ProfileGuard(metrics: metrics),
            firstModel: routes[0].model
        )
    }

    /// A completion whose answer is `content`, as `model` names itself, with `usage`.
    static func success(
        _ content: String = ModelAnswers.fridge([]),
        model: String = "gpt-4o-2024-08-06",
        usage: ChatCompletion.Usage? = nil,
        processingTime: Duration? = nil
    ) -> ChatCompletionsClient.Success {
        let completion = ChatCompletion(
            id: "x",
            created: 0,
            model: model,
            choices: [.init(message: .init(content: content, refusal: nil), finishReason: "stop")],
            usage: usage
        )
        return ChatCompletionsClient.Success(completion: completion, processingTime: processingTime)
    }

    /// A valid answer of `dishes`, as the model wrote it.
    static func validAnswer(_ dishes: [ModelAnswers.Dish], idSeed: UUID = UUID()) throws -> ValidAnswer {
        let content = ModelAnswers.fridge(dishes)
        return ValidAnswer(response: try ScanResponseContract.validateModelAnswer(Data(content.utf8), idSeed: idSeed), content: content)
    }

    /// A photo the stub can read.
    static let photo = SyntheticJPEG.make(size: 4096, seed: 3)

    /// A request for ``photo``, due in 10 seconds.
    static func request(profile: KitchenProfile? = nil) -> ScanRequest {
        ScanRequest(scanID: UUID(), images: [.init(jpeg: photo)], profile: profile, userKey: testUserKey, deadline: .now + .seconds(10))
    }
}
