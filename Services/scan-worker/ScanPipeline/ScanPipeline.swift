import Foundation
import KiwiDietGuard
import KiwiModels
import KiwiScans
import Logging

/// What every model request of one scan asks about.
struct ScanRequest: Sendable {
    /// The scan's id: the seed of its answer's ids, so that every attempt gives the same element the same ids.
    var scanID: UUID
    var images: [ScanPrompt.Photo]
    /// A refinement's confirmed ingredient names, asked about instead of photos; nil for a photo scan.
    var ingredients: [String]?
    /// A pantry scan's items, or a planned meal's, asked about instead of ``ingredients`` alone; nil otherwise.
    var pantry: PantryQuestion?
    /// A plan's request and pantry, asked about instead of ``pantry``; nil for any other scan.
    var plan: PlanQuestion?
    var mode: ScanMode = .fridge
    /// Whether the elements of a fridge answer are shown as they stream (``ScanJob/showsPartials``).
    var showsPartials = true
    var profile: KitchenProfile?
    /// The household members the scan cooks for (``ScanJob/table``), for saying for whom a recipe was withheld.
    var table: [TableSeat]?
    /// The user's pseudonymous key, sent as OpenAI's `safety_identifier`.
    var userKey: String
    /// The scan's request id, sent to OpenAI as `X-Client-Request-Id` so that a call can be traced there (and the
    /// development stub can scope a fault to one test's requests).
    var requestID: String?
    /// The gateway that started the scan, to which the news of each element shown goes (``ScanJob/gateway``).
    var gateway: String?
    /// Nothing outlives it: no attempt, no wait between attempts.
    var deadline: ContinuousClock.Instant
    /// What the scan's client shows of its answer so far, for every model call of the scan to confirm or restart.
    var shown = ShownState()
    /// The scan's recipes labelled with their allergens, each once, whether shown while streaming or in the result.
    var labels = RecipeLabels()
    /// The scan's recipes the guard found safe for its profile as they streamed, not read again in the result.
    var safe = SafeRecipes()
    /// Hears each attempt of the request's model call as it starts and streams (``AnswerShowing``); nil when nothing
    /// of the answer is shown before its result.
    var listener: (any AnswerListener)?
}

extension ScanRequest {
    /// What the model's answer is held to.
    var rules: ScanResponseContract.ModelRules { pantry?.rules ?? .photos }
    /// The guard of the language the answer is written in (``AnswerLanguage/of(_:)``), as its labels read it.
    var dietGuard: DietGuard { labels.dietGuard }
}

/// What a pantry scan asks the model about (docs/architecture.md, "Scans from the pantry"): the items, soonest to use
/// first, and the rules the answer meets, built once for the scan: its recipes use up only these items. A planned
/// meal's recipe asks the same of the items its outline uses up, for that one meal (docs/architecture.md, "Meal plans").
struct PantryQuestion: Sendable {
    let items: [OfferedPantryItem]
    let rules: ScanResponseContract.ModelRules
    /// The planned meal whose one recipe is written; nil for a pantry scan.
    let meal: MealRecipeRequest?

    init(_ items: [OfferedPantryItem]) {
        self.items = items
        rules = ScanResponseContract.ModelRules(usingUp: items.map(\.id))
        meal = nil
    }

    init(meal: MealRecipeRequest) {
        items = meal.items
        rules = ScanResponseContract.ModelRules(usingUp: meal.items.map(\.id), recipes: 1...1)
        self.meal = meal
    }
}

/// What a plan asks the model for (docs/architecture.md, "Meal plans"): its days and meals, the pantry's items soonest
/// to use first (none when it is empty), and the rules its outline meets, built once for the plan. A replacement of one
/// meal is a plan of its one slot beside the plan's other meals.
struct PlanQuestion: Sendable {
    let request: PlanRequest
    let items: [OfferedPantryItem]
    let rules: MealPlanContract.Rules
    /// Each item by its id, for the checks of every meal.
    let itemsByID: [UUID: OfferedPantryItem]
    /// For a replacement, the meal replaced and the plan's other meals; nil for a plan.
    let replacement: MealReplacement?
    /// The meals a new meal is checked beside besides the answer's: a replacement's plan's other meals, by their main
    /// ingredients alone (what they use up is theirs, and none of it is offered).
    let neighbours: [PlannedMeal]

    init(_ request: PlanRequest, items: [OfferedPantryItem], replacement: MealReplacement? = nil) {
        self.request = request
        self.items = items
        rules = MealPlanContract.Rules(request, pantry: items.map(\.id))
        itemsByID = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.replacement = replacement
        neighbours = (replacement?.others ?? []).map { meal in
            var neighbour = meal
            neighbour.outline?.usesUp = []
            return neighbour
        }
    }

    init(replacing replacement: MealReplacement) {
        self.init(replacement.request, items: replacement.items, replacement: replacement)
    }
}

/// What one scan's model calls came to: the answer or the failure, and what they cost.
struct ScanAnalysis: Sendable {
    var result: Result<ScanResponse, ScanFailure>
    var spending: ScanSpending

    /// What the scan's record keeps of the cost.
    var usage: ModelUsage { spending.usage }
}

/// A scan's (already cleaned) photos made into a validated ``ScanResponse``, guarded against the user's allergies and
/// diets, each recipe labelled with its allergens. The steps, in the order a scan meets them:
/// 1. ``ModelAnswering`` asks the model: a route chosen (``RouteFallback``), called with retries
///    (``RetryingModelCall``), the completion priced (``ScanSpending``) and read (``AnswerInterpreter``); when answers
///    stream, each element is shown as soon as it is checked (``StreamedAnswering``), every call of the scan confirming
///    or restarting what is shown (``ShownAnswer``);
/// 2. ``AnswerRepair`` asks once more, told why, when the answer cannot be used;
/// 3. ``ProfileGuard`` holds the answer to the user's profile, with one repair of its own; a plan's outline is held to
///    Kiwi's rules of plans instead (``PlanOutlining``), and a replacement that breaks them fails; a receipt has nothing
///    to guard, and photos that show none fail (`not_a_receipt`).
struct ScanPipeline: Sendable {
    let answering: any ModelAnswering
    let repair: AnswerRepair
    let profileGuard: ProfileGuard
    /// The first route's model: the one a scan's record names when no completion arrived.
    let firstModel: String

    func analyze(_ request: ScanRequest, logger: Logger) async -> ScanAnalysis {
        var spending = ScanSpending(model: firstModel)
        func ask(_ repair: ScanPrompt.Repair?) async -> ModelReply {
            await answering.answer(request, repair: repair, spending: &spending, logger: logger)
        }
        let result: Result<ScanResponse, ScanFailure>
        switch await repair.validAnswer(rounds: 2, logger: logger, asking: ask) {
        case .failure(let failure):
            result = .failure(failure)
        case .success(let answer) where request.mode == .receipt:
            // A receipt has no recipes to guard; photos the model says show no receipt fail, refunded.
            let response = answer.response
            result = response.receipt == nil ? .failure(ScanFailure(.notAReceipt, "The photos show no receipt.")) : .success(response)
        case .success(let answer) where request.plan != nil:
            let outlining = PlanOutlining(repair: repair, dietGuard: request.dietGuard)
            let outlined = await outlining.outlined(
                answer,
                plan: request.plan!,
                profile: request.profile,
                shown: request.shown,
                logger: logger,
                asking: ask
            )
            // A replacement that could not be planned fails, refunded, and leaves the meal it was to replace as it was.
            if request.plan?.replacement != nil, let empty = outlined.plan?.meals.first, empty.outline == nil {
                result = .failure(ScanFailure(.invalidModelResponse, "No other meal fits the plan: \(empty.emptyReason ?? "")"))
            } else {
                result = .success(outlined)
            }
        case .success(let answer):
            let response = await profileGuard.guarded(
                answer,
                profile: request.profile,
                table: request.table ?? [],
                labels: request.labels,
                safe: request.safe,
                logger: logger
            ) { guardRepair in
                await repair.validAnswer(rounds: 1, repair: guardRepair, logger: logger, asking: ask)
            }
            result = .success(response)
        }
        return ScanAnalysis(result: result, spending: spending)
    }
}
