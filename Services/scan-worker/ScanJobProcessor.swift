import CoreMetrics
import Foundation
import KiwiConcurrency
import KiwiMessaging
import KiwiNutrition
import KiwiScanMessages
import KiwiScans
import KiwiTracing
import Logging
import ServiceLifecycle
import Tracing

/// The scan worker's loop: takes scan jobs off the queue, hands each to ``ScanJobHandler``, and settles it once the
/// handler is done. A job is acknowledged only once its outcome is recorded; a worker that dies before that leaves
/// the job to be redelivered to another one.
///
/// Before taking a job it reads the nutrition table (``FoodTableLoader``): every recipe it shows gets its nutrition
/// per serving; without the table the worker does not start.
///
/// Every delivery runs as its own task, so up to the consumer's prefetch (`WORKER_CONCURRENCY`) jobs are in flight at
/// once, fewer while OpenAI's rate limit is near (``IntakeGovernor``). On graceful shutdown it stops taking jobs,
/// finishes the ones in flight (each bounded by its own deadline), and returns.
final class ScanJobProcessor: Service, Sendable {
    private let consumer: AMQPConsumer
    private let handler: ScanJobHandler
    /// The most jobs processed at once: `WORKER_CONCURRENCY` (also the consumer's prefetch), or fewer ahead of
    /// OpenAI's rate limit.
    private let intake: IntakeGovernor
    private let metrics: WorkerMetrics
    private let foods: FoodTableLoader
    private let logger: Logger

    init(consumer: AMQPConsumer, handler: ScanJobHandler, intake: IntakeGovernor, metrics: WorkerMetrics, foods: FoodTableLoader, logger: Logger) {
        self.consumer = consumer
        self.handler = handler
        self.intake = intake
        self.metrics = metrics
        self.foods = foods
        self.logger = logger
    }

    func run() async throws {
        let estimator: NutritionEstimator
        do {
            estimator = try await cancelWhenGracefulShutdown { try await self.foods.estimator(logger: self.logger) }
        } catch {
            guard Task.isShuttingDownGracefully else { throw error }
            logger.info("stopped before the nutrition table was ready; no scan job was taken")
            consumer.stopConsuming()
            return
        }
        await withTaskGroup(of: Void.self) { group in
            await withGracefulShutdownHandler {
                var running = 0
                deliveries: for await delivery in consumer.deliveries {
                    // The prefetch bounds the jobs of one connection. After a reconnect the jobs of the old one may
                    // still be running (the broker has requeued them), so the limit is kept here as well; and it is
                    // lowered ahead of OpenAI's rate limit (``IntakeGovernor``). A job held back when the worker
                    // shuts down is left unacknowledged, for the broker to give to another worker. While it waits, it
                    // counts as held.
                    var held = false
                    while running >= intake.allowedJobs() {
                        if !held {
                            held = true
                            metrics.jobsHeld.increment()
                        }
                        if running > 0 {
                            await group.next()
                            running -= 1
                        } else {
                            let lifts = intake.liftsAt ?? .now + .milliseconds(100)
                            try? await cancelWhenGracefulShutdown { try await sleep(until: lifts) }
                            if Task.isShuttingDownGracefully {
                                metrics.jobsHeld.decrement()
                                break deliveries
                            }
                        }
                    }
                    if held { metrics.jobsHeld.decrement() }
                    group.addTask { await self.process(delivery, nutrition: estimator) }
                    running += 1
                }
            } onGracefulShutdown: {
                self.logger.info("no longer taking scan jobs; finishing the ones in flight")
                self.consumer.stopConsuming()
            }
        }
    }

    /// Handles one delivery in a span that continues the gateway's trace (the job's `traceparent` header), then
    /// settles it.
    private func process(_ delivery: AMQPDelivery, nutrition: NutritionEstimator) async {
        let gateway = ServiceContext.continuing(delivery.message.properties.headers, using: MessageHeadersExtractor())
        await withSpan("process scan job", context: gateway, ofKind: .consumer) { span in
            span.attributes["messaging.system"] = "rabbitmq"
            span.attributes["messaging.message.conversation_id"] = delivery.message.properties.headers[ScanJob.Header.scanID]
            let started = ContinuousClock.now
            metrics.jobsInFlight.increment()
            defer { metrics.jobsInFlight.decrement() }
            guard let handled = await handler.handle(delivery, nutrition: nutrition, logger: logger) else { return }
            switch handled.settlement {
            case .ack: await settle("ack", logger: handled.logger) { try await delivery.ack() }
            case .reject: await settle("reject", logger: handled.logger) { try await delivery.reject() }
            }
            metrics.jobEnded(handled.outcome, startedAt: started)
            span.attributes["kiwi.scan.outcome"] = handled.outcome
        }
    }

    /// Settles a delivery. Failing to means its connection is gone, and then the broker has already requeued it.
    private func settle(_ action: String, logger: Logger, _ body: () async throws -> Void) async {
        do {
            try await body()
        } catch {
            logger.warning("could not \(action) the job; the broker will redeliver it", metadata: ["error": "\(error)"])
        }
    }
}
