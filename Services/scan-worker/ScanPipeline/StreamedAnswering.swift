import Foundation
import KiwiDietGuard
import KiwiModels
import KiwiScanMessages
import KiwiScanStore
import KiwiScans
import KiwiStrictJSON
import Logging
import Synchronization

/// Hears a model's answer as it streams: each attempt's start, then its content fragments in order.
protocol AnswerListener: Sendable {
    /// An attempt (a retry, a repair, another route) starts: what earlier attempts wrote no longer counts.
    func attemptStarted() async
    /// The attempt's next fragment of content.
    func received(_ fragment: String) async
}

/// Where the elements of a scan's answer go to be shown to its clients before the answer is whole.
protocol ScanPartialSink: Sendable {
    /// Shows `partial` to the clients of scan `scanID`, which gateway `gateway` started; false when it was not shown
    /// (the scan is no longer running, or holds as many partials as it may).
    func show(_ partial: ScanPartial, of scanID: UUID, startedBy gateway: String?) async throws -> Bool
}

/// The real sink: the partial stored on the scan's record (``ScanTransitionStore/show(_:of:)``), then the gateways told
/// the scan changed, as for any of its state changes; they send its clients what the record holds.
struct StoredPartialSink: ScanPartialSink {
    let scans: ScanTransitionStore
    let announcer: ScanEventAnnouncer

    func show(_ partial: ScanPartial, of scanID: UUID, startedBy gateway: String?) async throws -> Bool {
        guard try await scans.show(partial, of: scanID) != nil else { return false }
        await announcer.announce(ScanEvent(scanID: scanID, state: .running), startedBy: gateway)
        return true
    }
}

/// The sink of a benchmark leg without shows (``BenchOmissions/Feature/shows``): each partial counts as shown, and
/// nothing is stored or announced, so the leg measures what storing and announcing them costs.
struct UnstoredPartialSink: ScanPartialSink {
    func show(_ partial: ScanPartial, of scanID: UUID, startedBy gateway: String?) async throws -> Bool {
        true
    }
}

/// What a scan's client shows of its answer (``ShownAnswer``), kept across all of the scan's model calls; the
/// processor starts it from the scan's claim.
final class ShownState: Sendable {
    fileprivate let answer: Mutex<ShownAnswer>
    /// Set once a partial could not be shown: what the client shows is unknown from then on.
    private let abandonment = Atomic(false)

    init(_ shown: [ScanPartial] = []) {
        answer = Mutex(ShownAnswer(shown: shown))
    }

    /// What the client shows now.
    var shown: [ScanPartial] { answer.withLock { $0.shown } }

    /// Whether the scan has stopped showing its answer before the result.
    var abandoned: Bool { abandonment.load(ordering: .relaxed) }

    /// Shows nothing more of the scan: its result replaces what is shown.
    func abandon() {
        abandonment.store(true, ordering: .relaxed)
    }
}

/// The pipeline's answering step when answers stream (`LLM_STREAM`): the same call as ``ChatCompletionAnswering``, with
/// each element of a fridge answer (a plan's meal, a receipt's line) shown as soon as it is written and checked
/// (``AnswerShowing``). Dish answers are
/// one object: they stream, and show nothing before their result; nor does a scan whose client waits for the result
/// alone (``ScanRequest/showsPartials``), unless an earlier delivery of its job already showed some (a worker of the
/// release before showed every scan's): what was shown is confirmed or restarted, never left to contradict the result.
struct StreamedAnswering: ModelAnswering {
    let calling: ChatCompletionAnswering
    let sink: any ScanPartialSink

    func answer(_ request: ScanRequest, repair: ScanPrompt.Repair?, spending: inout ScanSpending, logger: Logger) async -> ModelReply {
        var request = request
        if request.mode != .dish, request.showsPartials || !request.shown.shown.isEmpty {
            request.listener = AnswerShowing(request: request, sink: sink, dietGuard: request.dietGuard, logger: logger)
        }
        return await calling.answer(request, repair: repair, spending: &spending, logger: logger)
    }
}

/// Shows one model call's answer while it streams: the incremental reader hands over each element as it closes; it is
/// validated against the answer's contract (its ids derived from the scan's id, as in the whole answer), each recipe
/// guarded on its own against the profile (any finding: never shown) and labelled with its allergens, and what
/// ``ShownAnswer`` says to send goes to the sink. Showing is best effort: once a partial could not be shown, what the
/// client shows is unknown, so the scan shows nothing more, and its result, which replaces everything, still comes.
actor AnswerShowing: AnswerListener {
    private let request: ScanRequest
    private let sink: any ScanPartialSink
    private let dietGuard: DietGuard
    private let logger: Logger
    private var reader = IncrementalJSONReader()

    init(request: ScanRequest, sink: any ScanPartialSink, dietGuard: DietGuard, logger: Logger) {
        self.request = request
        self.sink = sink
        self.dietGuard = dietGuard
        self.logger = logger
    }

    func attemptStarted() {
        reader = IncrementalJSONReader()
        request.shown.answer.withLock { $0.beginAttempt() }
    }

    func received(_ fragment: String) async {
        guard !request.shown.abandoned else { return }
        let elements: [IncrementalJSONReader.Element]
        do {
            elements = try reader.read(fragment)
        } catch {
            return  // not JSON: the whole answer's validation says why, and a repair follows
        }
        for element in elements {
            for partial in accept(element) where !(await show(partial)) { return }
        }
    }

    /// The partials `element` makes the client see: none when it breaks the contract or the profile, or confirms what
    /// is shown.
    private func accept(_ element: IncrementalJSONReader.Element) -> [ScanPartial] {
        let idSeed = request.scanID
        do throws(ScanResponseValidationError) {
            switch element {
            case .ingredients(let value):
                let ingredients = try ScanResponseContract.validateModelIngredients(value, by: request.rules, idSeed: idSeed)
                return request.shown.answer.withLock { $0.accept(ingredients: ingredients) }
            case .recipe(let index, let value):
                let recipe = try ScanResponseContract.validateModelRecipe(value, at: index, by: request.rules, idSeed: idSeed)
                if let profile = request.profile, !profile.isEmpty {
                    guard dietGuard.finding(in: recipe, for: profile) == nil else { return [] }
                    request.safe.insert(recipe)
                }
                let labelled = request.labels.labelled(recipe)
                return request.shown.answer.withLock { $0.accept(recipe: labelled) }
            case .meal(let index, let value):
                guard let plan = request.plan else { return [] }
                let meal = try MealPlanContract.validateModelMeal(value, at: index, by: plan.rules, idSeed: idSeed)
                let checks = PlanChecks(dietGuard: dietGuard, plan: plan, profile: request.profile.flatMap { $0.isEmpty ? nil : $0 })
                return request.shown.answer.withLock { shown in
                    let fits = !shown.meals.contains { $0.id == meal.id } && checks.problem(of: meal, among: shown.meals) == nil
                    return fits ? shown.accept(meal: meal) : []
                }
            case .line(let index, let value):
                guard request.mode == .receipt else { return [] }
                let line = try ReceiptAnswerContract.validateModelLine(value, at: index, idSeed: idSeed)
                return request.shown.answer.withLock { $0.accept(line: line) }
            }
        } catch {
            return []
        }
    }

    private func show(_ partial: ScanPartial) async -> Bool {
        do {
            if try await sink.show(partial, of: request.scanID, startedBy: request.gateway) { return true }
            logger.info("a partial was not shown: the scan is no longer running or holds all it may; showing nothing more")
        } catch {
            logger.warning("could not show a partial; showing nothing more of this scan", metadata: ["error": "\(error)"])
        }
        request.shown.abandon()
        return false
    }
}
