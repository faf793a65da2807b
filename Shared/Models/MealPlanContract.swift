import Foundation
import KiwiStrictJSON

/// The rules of a plan's outline (docs/architecture.md, "Meal plans"), from one description as for scan answers
/// (``ScanResponseContract``). The model writes `{"meals": [{"slot": "d1-dinner", …}]}`: one meal for each of the
/// plan's slots, which the schema enumerates, each once; its `usesUp` names the pantry items by the labels the plan
/// offered them under (``ScanResponseContract/pantryLabel(_:)``), each item once in the whole plan. Clients receive
/// the meals in a scan response's `plan`, each with its date and meal, an id derived from its slot, and the items'
/// ids. What the contract cannot say (the order items are used up in, a main ingredient two days running, the cook
/// time, the profile) Kiwi checks on the validated outline, meal by meal.
public enum MealPlanContract {
    /// What the model may write for one plan, built once per plan.
    public struct Rules: Sendable {
        /// The whole answer.
        public let answer: JSONShape
        public let request: PlanRequest
        /// One meal of ``answer``: what a streamed meal is checked against on its own.
        let meal: JSONShape
        private let slots: [String: PlanSlot]
        private let pantryItems: [String: UUID]

        public init(_ request: PlanRequest, pantry: [UUID]) {
            self.request = request
            let slots = request.slots
            self.slots = Dictionary(uniqueKeysWithValues: slots.map { ($0.label, $0) })
            let labels = pantry.indices.map(ScanResponseContract.pantryLabel)
            pantryItems = Dictionary(uniqueKeysWithValues: zip(labels, pantry))
            // An empty pantry offers no label, and a schema may not enumerate none: its meals list no items.
            let usesUp =
                pantry.isEmpty
                ? []
                : [JSONProperty("usesUp", .constrained(.array(of: .oneOf(labels), count: 0...pantry.count), ScanResponseContract.eachOnceRule))]
            let meal = JSONShape.object(
                [
                    JSONProperty("slot", .oneOf(slots.map(\.label))),
                    JSONProperty("name", .string(length: 1...100)),
                    JSONProperty("mainIngredient", .string(length: 1...60)),
                    JSONProperty("summary", .string(length: 1...200)),
                    JSONProperty("cookTimeMinutes", .integer(1...240)),
                ] + usesUp
            )
            self.meal = meal
            answer = .object([
                JSONProperty("meals", .constrained(.array(of: meal, count: slots.count...slots.count), MealPlanContract.eachSlotAndItemOnce))
            ])
        }

        /// The planned meal of a checked model meal: its slot's date and id, its labels the items' ids.
        fileprivate func planned(_ meal: ModelMeal, seed: UUID) -> (slot: PlanSlot, meal: PlannedMeal)? {
            guard let slot = slots[meal.slot] else { return nil }
            let outline = MealOutline(
                name: meal.name,
                mainIngredient: meal.mainIngredient,
                summary: meal.summary,
                cookTimeMinutes: meal.cookTimeMinutes,
                usesUp: (meal.usesUp ?? []).compactMap { pantryItems[$0] }
            )
            return (
                slot,
                PlannedMeal(
                    id: MealPlanContract.mealID(of: slot, seed: seed),
                    date: request.date(of: slot),
                    meal: slot.meal,
                    outline: outline
                )
            )
        }
    }

    /// Checks a model's plan against every rule of `rules` and returns it as a plan's scan response: its meals in the
    /// plan's order, each with the id of its slot under `idSeed` (the scan's id). Throws every violation found, each
    /// with its JSON path.
    public static func validateModelAnswer(_ data: Data, by rules: Rules, idSeed: UUID) throws(ScanResponseValidationError) -> ScanResponse {
        let checked = try ScanResponseContract.check(try ScanResponseContract.parse(data), against: rules.answer)
        let answer = try ScanResponseContract.decode(checked, as: ModelAnswer.self)
        let meals = answer.meals.compactMap { rules.planned($0, seed: idSeed) }.sorted { ($0.slot.day, $0.slot.meal) < ($1.slot.day, $1.slot.meal) }
        return ScanResponse(ingredients: [], recipes: [], plan: MealPlanOutline(meals: meals.map(\.meal)))
    }

    /// Checks the meal at `index` of a plan's `meals` on its own, as it streams, by the same rules as in the whole
    /// answer but those across meals (each slot and item once), which the worker checks against the meals shown before
    /// it; returns it as ``validateModelAnswer(_:by:idSeed:)`` would.
    public static func validateModelMeal(
        _ value: JSONValue,
        at index: Int,
        by rules: Rules,
        idSeed: UUID
    ) throws(ScanResponseValidationError) -> PlannedMeal {
        let path = "$.meals[\(index)]"
        let checked = try ScanResponseContract.check(value, at: path, against: rules.meal)
        guard let planned = rules.planned(try ScanResponseContract.decode(checked, as: ModelMeal.self), seed: idSeed) else {
            throw ScanResponseValidationError(violations: [JSONViolation(path: "\(path).slot", message: "is not one of the plan's slots")])
        }
        return planned.meal
    }

    /// The id of a plan's meal in `slot`: the same whatever the model writes there, so that an edit or a repair keeps it.
    public static func mealID(of slot: PlanSlot, seed: UUID) -> UUID {
        UUID(derivingFrom: seed, path: "$.plan.meals", entity: .string(slot.label))
    }

    /// The plan's meals as clients receive them.
    static let clientOutline = JSONShape.object([
        JSONProperty(
            "meals",
            .array(
                of: .object([
                    JSONProperty("id", .uuid),
                    JSONProperty("date", .string(length: 10...10)),
                    JSONProperty("meal", .oneOf(MealTime.allCases.map(\.rawValue))),
                    JSONProperty(
                        "outline",
                        .object([
                            JSONProperty("name", .string(length: 1...100)),
                            JSONProperty("mainIngredient", .string(length: 1...60)),
                            JSONProperty("summary", .string(length: 1...200)),
                            JSONProperty("cookTimeMinutes", .integer(1...240)),
                            JSONProperty("usesUp", .constrained(.array(of: .uuid, count: 0...40), ScanResponseContract.eachOnceRule)),
                        ]),
                        required: false
                    ),
                    JSONProperty("emptyReason", .string(length: 1...500), required: false),
                ]),
                count: 1...(PlanRequest.mostDays * MealTime.allCases.count)
            )
        )
    ])

    /// Each slot has one meal, and each pantry item is used up by one meal at most.
    static let eachSlotAndItemOnce = JSONConstraint { value, path in
        guard case .array(let meals) = value else { return [] }
        var slots: Set<JSONValue> = []
        var items: Set<JSONValue> = []
        var violations: [JSONViolation] = []
        for (index, meal) in meals.enumerated() {
            guard case .object(let object) = meal else { continue }
            if let slot = object["slot"], !slots.insert(slot).inserted {
                violations.append(JSONViolation(path: "\(path)[\(index)].slot", message: "repeats a slot planned before: each slot has one meal"))
            }
            if case .array(let used)? = object["usesUp"] {
                for (position, item) in used.enumerated() where !items.insert(item).inserted && !used[..<position].contains(item) {
                    violations.append(
                        JSONViolation(
                            path: "\(path)[\(index)].usesUp[\(position)]",
                            message: "is used up by an earlier meal: each item is used up once"
                        )
                    )
                }
            }
        }
        return violations
    }

    private struct ModelAnswer: Decodable {
        var meals: [ModelMeal]
    }
}

/// One meal as the model writes it.
private struct ModelMeal: Decodable {
    var slot: String
    var name: String
    var mainIngredient: String
    var summary: String
    var cookTimeMinutes: Int
    var usesUp: [String]?
}
