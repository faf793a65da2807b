import Foundation
import KiwiStrictJSON

/// The rules of a scan answer (docs/architecture.md, "The scan answer contract"), and the validators and JSON Schema built from them.
///
/// There are two shapes with the same rules. ``scanResponse`` is what clients receive: every ingredient, recipe and
/// recipe ingredient has a UUID `id`, and the server adds `appliedProfile`, `withheldRecipes`, `mode` and, for a dish
/// scan, `dish` (``DishAnswerContract``). ``modelAnswer`` is what the model writes for a fridge scan: the same without
/// the ids, which the server assigns — they are never trusted from the model, and asking it for some 114 UUIDs would
/// spend about half of its output tokens on them.
public enum ScanResponseContract {
    /// A scan response as clients receive it, with server-assigned ids.
    public static let scanResponse = clientShape()

    /// A scan answer as the model writes it: the rules of ``scanResponse`` without the ids.
    public static let modelAnswer = ModelRules.photos.answer

    /// The JSON Schema for OpenAI Structured Outputs (`response_format.json_schema.schema`, with `strict: true`) of an
    /// answer written in `language`.
    public static func jsonSchema(answeringIn language: AnswerLanguage) -> JSONValue { schema(of: modelAnswer, answeringIn: language) }

    /// What the model may write for one scan: a photo scan's answer, or a pantry scan's, whose recipes name the pantry
    /// items they use up by the labels the scan offered them under (``pantryLabel(_:)``) and no others. Built once per
    /// scan; its pieces check a streamed answer one element at a time.
    public struct ModelRules: Sendable {
        /// The whole answer.
        public let answer: JSONShape
        let ingredients: JSONShape
        let recipe: JSONShape
        /// A pantry scan's items by the label the model knows each by; empty for any other scan.
        private let pantryItems: [String: String]

        /// The rules of a photo scan's (and a refinement's) answer.
        public static let photos = ModelRules(recipe: ScanResponseContract.recipe(withIDs: false), pantryItems: [:])

        /// The rules of a pantry scan's answer: each recipe's `usesUp` lists some of the labels of `pantry`, each once,
        /// which the answer validated names by the items' ids. A planned meal's recipe is one (`recipes`), and uses up
        /// only its own items: without any, it has no `usesUp` (a strict schema may not enumerate nothing).
        public init(usingUp pantry: [UUID], recipes: ClosedRange<Int> = ScanResponseContract.recipeCount) {
            let labels = pantry.indices.map(ScanResponseContract.pantryLabel)
            let usesUp = JSONShape.constrained(.array(of: .oneOf(labels), count: 0...pantry.count), ScanResponseContract.eachOnceRule)
            self.init(
                recipe: ScanResponseContract.recipe(withIDs: false, usesUp: pantry.isEmpty ? nil : JSONProperty("usesUp", usesUp)),
                recipes: recipes,
                pantryItems: Dictionary(uniqueKeysWithValues: zip(labels, pantry.map { $0.uuidString.lowercased() }))
            )
        }

        private init(recipe: JSONShape, recipes: ClosedRange<Int> = ScanResponseContract.recipeCount, pantryItems: [String: String]) {
            ingredients = ScanResponseContract.ingredientList(withIDs: false)
            self.recipe = recipe
            self.pantryItems = pantryItems
            answer = .object([
                JSONProperty("ingredients", ingredients),
                JSONProperty("recipes", .array(of: recipe, count: recipes)),
            ])
        }

        /// A checked recipe with its `usesUp` labels replaced by the items' ids.
        func naming(_ recipe: JSONValue) -> JSONValue {
            guard !pantryItems.isEmpty, case .object(var object) = recipe, case .array(let labels)? = object["usesUp"] else { return recipe }
            object["usesUp"] = .array(
                labels.map { label in if case .string(let text) = label, let id = pantryItems[text] { .string(id) } else { label } }
            )
            return .object(object)
        }

        /// A checked answer with every recipe's `usesUp` labels replaced by the items' ids.
        func naming(inAnswer answer: JSONValue) -> JSONValue {
            guard !pantryItems.isEmpty, case .object(var object) = answer, case .array(let recipes)? = object["recipes"] else { return answer }
            object["recipes"] = .array(recipes.map { naming($0) })
            return .object(object)
        }
    }

    /// The label a pantry scan offers its `index`-th item under (`p1`, `p2`, …): a UUID costs some 20 tokens each time
    /// the prompt, the schema or the answer writes it, a label two.
    public static func pantryLabel(_ index: Int) -> String { "p\(index + 1)" }

    /// Checks a scan response against every rule (ids included) and returns it.
    /// Throws every violation found, each with its JSON path, rather than stopping at the first.
    public static func validate(_ data: Data) throws(ScanResponseValidationError) -> ScanResponse {
        try decode(try check(try parse(data), against: scanResponse))
    }

    /// Checks a model's answer against every rule of `rules` and returns it as a ``ScanResponse`` whose ids the server
    /// derives from `idSeed` (the scan's id) and the answer (``JSONShape/derivingIDs(in:at:seed:)``); any `id` the
    /// model wrote where the response has one is discarded, never trusted. Throws every violation found, each with its
    /// JSON path.
    public static func validateModelAnswer(
        _ data: Data,
        by rules: ModelRules = .photos,
        idSeed: UUID
    ) throws(ScanResponseValidationError) -> ScanResponse {
        let value = rules.naming(inAnswer: try check(try parse(data), against: rules.answer, ignoringIDsOf: scanResponse))
        return try decode(scanResponse.derivingIDs(in: value, at: "$", seed: idSeed))
    }

    /// Checks an answer's `ingredients` array on its own, as it streams, by the same rules as in the whole answer,
    /// and returns it with the ids ``validateModelAnswer(_:by:idSeed:)`` gives it.
    public static func validateModelIngredients(
        _ value: JSONValue,
        by rules: ModelRules = .photos,
        idSeed: UUID
    ) throws(ScanResponseValidationError) -> [Ingredient] {
        let path = "$.ingredients"
        let checked = try check(value, at: path, against: rules.ingredients, ignoringIDsOf: clientIngredients)
        return try decode(clientIngredients.derivingIDs(in: checked, at: path, seed: idSeed), as: [Ingredient].self)
    }

    /// Checks the recipe at `index` of an answer's `recipes` on its own, as it streams, by the same rules as in the
    /// whole answer (an index past the most recipes an answer may have included), and returns it with the ids
    /// ``validateModelAnswer(_:by:idSeed:)`` gives it at that index.
    public static func validateModelRecipe(
        _ value: JSONValue,
        at index: Int,
        by rules: ModelRules = .photos,
        idSeed: UUID
    ) throws(ScanResponseValidationError) -> Recipe {
        guard (0..<recipeCount.upperBound).contains(index) else {
            let message = "must have at most \(recipeCount.upperBound) items, found one at index \(index)"
            throw ScanResponseValidationError(violations: [JSONViolation(path: "$.recipes", message: message)])
        }
        let path = "$.recipes[\(index)]"
        let checked = rules.naming(try check(value, at: path, against: rules.recipe, ignoringIDsOf: clientRecipe))
        return try decode(clientRecipe.derivingIDs(in: checked, at: path, seed: idSeed), as: Recipe.self)
    }

    /// The pieces of ``scanResponse`` that a streamed answer is shown by, one at a time.
    private static let clientIngredients = ingredientList(withIDs: true)
    private static let clientRecipe = recipe(withIDs: true)
    /// How many recipes an answer has.
    public static let recipeCount = 0...4

    /// The answer as clients receive it: the model's, with ids, and what the server adds (absent from answers
    /// recorded before profiles existed).
    private static func clientShape() -> JSONShape {
        let answer = [
            JSONProperty("ingredients", clientIngredients),
            JSONProperty("recipes", .array(of: clientRecipe, count: recipeCount)),
        ]
        let withheld = JSONShape.object([
            JSONProperty("name", .string(length: 1...200)), JSONProperty("reason", .string(length: 1...500)),
            JSONProperty("for", .array(of: .uuid, count: 1...Household.capacity), required: false),
        ])
        return .object(
            answer + [
                JSONProperty("appliedProfile", KitchenProfile.shape, required: false),
                JSONProperty("withheldRecipes", .array(of: withheld, count: 0...8), required: false),
                JSONProperty("mode", .oneOf(ScanMode.allCases.map(\.rawValue)), required: false),
                JSONProperty("dish", DishAnswerContract.clientDish, required: false),
                JSONProperty("plan", MealPlanContract.clientOutline, required: false),
                JSONProperty("receipt", ReceiptAnswerContract.clientReceipt, required: false),
            ]
        )
    }

    /// An answer's `ingredients`: the food seen in the photos.
    private static func ingredientList(withIDs: Bool) -> JSONShape {
        let ingredient = JSONShape.entity(
            [
                JSONProperty("name", .string(length: 1...100)),
                canonicalNameProperty(withIDs: withIDs),
                JSONProperty("category", .string(length: 1...50)),
                JSONProperty("confidence", .number(0...1)),
            ],
            withID: withIDs
        )
        return .array(of: ingredient, count: 0...40)
    }

    /// One of an answer's `recipes`; `usesUp`, for the model's recipe of a pantry scan, its pantry items. A client's
    /// recipe may list them (a pantry scan's does).
    private static func recipe(withIDs: Bool, usesUp: JSONProperty? = nil) -> JSONShape {
        let recipeIngredient = JSONShape.entity(
            [
                JSONProperty("name", .string(length: 1...100)),
                canonicalNameProperty(withIDs: withIDs),
                JSONProperty("isDetected", .boolean),
                JSONProperty("substitution", .nullable(.string(length: 0...200))),
            ] + quantityProperties(withIDs: withIDs),
            withID: withIDs
        )
        let stepCount = 1...15
        return .constrained(
            .entity(
                [
                    JSONProperty("name", .string(length: 1...200)),
                    JSONProperty("summary", .string(length: 1...500)),
                    JSONProperty("cookTimeMinutes", .integer(1...120)),
                    JSONProperty("difficulty", .oneOf(Difficulty.allCases.map(\.rawValue))),
                    JSONProperty("ingredients", .array(of: .constrained(recipeIngredient, quantityRule), count: 1...20)),
                    JSONProperty("steps", .array(of: .string(length: 1...500), count: stepCount)),
                    JSONProperty("makeItFasterTip", .nullable(.string(length: 0...300))),
                    allergensProperty(withIDs: withIDs),
                    addedLater("servings", .integer(1...12), withIDs: withIDs),
                    stepDetailsProperty(count: stepCount, withIDs: withIDs),
                ]
                    + (withIDs
                        ? [
                            JSONProperty("nutrition", RecipeNutrition.shape, required: false), clientUsesUp,
                            JSONProperty("cost", RecipeCost.shape, required: false), languageProperty,
                        ]
                        : usesUp.map { [$0] } ?? []),
                withID: withIDs
            ),
            stepDetailsRule
        )
    }

    /// The language a recipe is written in, as clients receive it: the server sets it, the model never writes it.
    static let languageProperty = JSONProperty("language", .oneOf(AnswerLanguage.allCases.map(\.rawValue)), required: false)

    /// A recipe's `usesUp` as clients receive it: the pantry items a pantry scan's recipe uses up.
    private static let clientUsesUp = JSONProperty("usesUp", .constrained(.array(of: .uuid, count: 0...40), eachOnceRule), required: false)

    /// An array names each item once: a pantry item is used up once.
    static let eachOnceRule = JSONConstraint { value, path in
        guard case .array(let items) = value else { return [] }
        var seen: Set<JSONValue> = []
        return items.enumerated().compactMap { index, item in
            seen.insert(item).inserted ? nil : JSONViolation(path: "\(path)[\(index)]", message: "repeats an item listed before")
        }
    }

    /// A member added to answers after the first recorded ones (quantities, servings, step details): the model must
    /// write it (``JSONProperty/addedLater(_:_:)``), and an answer recorded before it, or a client's recipe, may lack it.
    static func addedLater(_ name: String, _ shape: JSONShape, withIDs: Bool) -> JSONProperty {
        withIDs ? JSONProperty(name, shape, required: false) : .addedLater(name, shape)
    }

    /// An ingredient's plain English name (``EnglishNamed``), the same for a fridge answer's ingredients and recipes and a
    /// dish's: the model writes it in an answer written in another language than English, whose schema alone asks for it
    /// (``schema(of:answeringIn:)``), and an ingredient has it when its answer did.
    static func canonicalNameProperty(withIDs: Bool) -> JSONProperty {
        addedLater(canonicalName, .string(length: 1...100), withIDs: withIDs)
    }

    /// The member ``canonicalNameProperty(withIDs:)`` names.
    static let canonicalName = "canonicalName"

    /// The JSON Schema sent to the model for `answer` written in `language`: an English answer's without
    /// `canonicalName`, which its `name` already is (asking for it would spend some 400 output tokens, seconds of the
    /// answer, repeating names).
    public static func schema(of answer: JSONShape, answeringIn language: AnswerLanguage) -> JSONValue {
        language == .en ? answer.removingMembers(named: canonicalName).jsonSchema : answer.jsonSchema
    }

    /// A recipe ingredient's quantity, the same for a fridge recipe and a dish's: `amount` in `unit`, both `null`
    /// for an ingredient without a measure, the amount `null` for one the cook judges (`to taste`). See
    /// ``quantityRule``.
    static func quantityProperties(withIDs: Bool) -> [JSONProperty] {
        [
            addedLater("amount", .nullable(.number(0.01...10_000)), withIDs: withIDs),
            addedLater("unit", .nullable(.oneOf(QuantityUnit.allCases.map(\.rawValue))), withIDs: withIDs),
        ]
    }

    /// A recipe's `stepDetails`: one per step (``stepDetailsRule``), each with the minutes the step waits, if it does.
    static func stepDetailsProperty(count: ClosedRange<Int>, withIDs: Bool) -> JSONProperty {
        let detail = JSONShape.object([JSONProperty("durationMinutes", .nullable(.integer(1...600)))])
        return addedLater("stepDetails", .array(of: detail, count: count), withIDs: withIDs)
    }

    /// `amount` is `null` exactly when `unit` is `null` or `to taste`: a measure has a number, a number has a measure,
    /// and an amount the cook judges has none. A member left out (an older answer) counts as `null`.
    static let quantityRule = JSONConstraint { value, path in
        guard case .object(let ingredient) = value else { return [] }
        let amount = ingredient["amount"] ?? .null
        let unit = ingredient["unit"] ?? .null
        switch (amount, unit) {
        case (.number, .null):
            return [JSONViolation(path: "\(path).unit", message: "must be a unit when amount is a number")]
        case (.number, .string(QuantityUnit.toTaste.rawValue)):
            return [JSONViolation(path: "\(path).amount", message: "must be null when unit is \"\(QuantityUnit.toTaste.rawValue)\"")]
        case (.null, .string(let unit)) where unit != QuantityUnit.toTaste.rawValue:
            return [JSONViolation(path: "\(path).amount", message: "must be a number when unit is \"\(unit)\"")]
        default:
            return []
        }
    }

    /// A recipe's `stepDetails`, when it has them, has exactly one item per step.
    static let stepDetailsRule = JSONConstraint { value, path in
        guard case .object(let recipe) = value, case .array(let details)? = recipe["stepDetails"], case .array(let steps)? = recipe["steps"],
            details.count != steps.count
        else { return [] }
        return [JSONViolation(path: "\(path).stepDetails", message: "must have one item per step, \(steps.count), found \(details.count)")]
    }

    /// A recipe's `allergens`: the EU-14 groups it contains. The model must declare them (an answer without them breaks
    /// the contract, as it could not be written under strict Structured Outputs); clients may meet recipes answered
    /// before they were declared, without them.
    static func allergensProperty(withIDs: Bool) -> JSONProperty {
        let groups = KitchenProfile.Allergen.allCases.map(\.rawValue)
        return JSONProperty("allergens", .array(of: .oneOf(groups), count: 0...groups.count), required: !withIDs)
    }

    /// `data` parsed strictly.
    static func parse(_ data: Data) throws(ScanResponseValidationError) -> JSONValue {
        do {
            return try StrictJSONParser().parse(data)
        } catch {
            throw ScanResponseValidationError(violations: [JSONViolation(path: "$", message: "not valid JSON: \(error)")])
        }
    }

    /// `value`, found at `path`, checked against `shape`; with `idShape`, any `id` it declares removed first.
    static func check(
        _ value: JSONValue,
        at path: String = "$",
        against shape: JSONShape,
        ignoringIDsOf idShape: JSONShape? = nil
    ) throws(ScanResponseValidationError) -> JSONValue {
        let value = idShape?.removingIDs(in: value) ?? value
        let violations = shape.violations(of: value, at: path)
        guard violations.isEmpty else { throw ScanResponseValidationError(violations: violations) }
        return value
    }

    /// A checked value as `Value`, decoded from the parsed tree rather than from its text written out again.
    static func decode<Value: Decodable>(_ value: JSONValue, as type: Value.Type = ScanResponse.self) throws(ScanResponseValidationError) -> Value {
        do {
            return try JSONValueDecoder().decode(Value.self, from: value)
        } catch {
            throw ScanResponseValidationError(violations: [JSONViolation(path: "$", message: "does not decode: \(error)")])
        }
    }
}

extension RecipeCost {
    /// The rules of a recipe's `cost` as clients receive it; the server counts it, the model never writes it.
    static let shape = JSONShape.object([
        JSONProperty("currency", .oneOf(Currency.codes)),
        JSONProperty("total", .number(0...100_000_000)),
        JSONProperty("perServing", .number(0...100_000_000)),
        JSONProperty("servings", .integer(1...24)),
        JSONProperty("status", .oneOf(CostStatus.allCases.map(\.rawValue))),
        JSONProperty(
            "unpriced",
            .array(
                of: .object([
                    JSONProperty("name", .string(length: 1...100)),
                    JSONProperty("reason", .oneOf(UnpricedIngredient.Reason.allCases.map(\.rawValue))),
                ]),
                count: 0...40
            )
        ),
    ])
}

extension RecipeNutrition {
    /// The rules of a recipe's `nutrition` as clients receive it; the server computes it, the model never writes it.
    static let shape: JSONShape = {
        let status = JSONShape.oneOf(NutritionStatus.allCases.map(\.rawValue))
        let amount = JSONShape.object([JSONProperty("value", .number(0...1_000_000)), JSONProperty("status", status)])
        let nutrients = ["energyKcal", "proteinG", "fatG", "saturatedFatG", "carbohydrateG", "sugarsG", "fibreG", "sodiumMg"]
        let name = JSONShape.string(length: 1...100)
        let match = JSONShape.object([
            JSONProperty("name", name),
            JSONProperty("food", .string(length: 1...500), required: false),
            JSONProperty("dataset", .oneOf(["foundation", "sr_legacy", "survey_fndds"]), required: false),
            JSONProperty("confidence", .number(0...1), required: false),
            JSONProperty("grams", .number(0...10_000_000), required: false),
            JSONProperty("estimated", .boolean),
        ])
        return .object([
            JSONProperty("source", .oneOf([estimatedFromFDC])),
            JSONProperty("servings", .integer(1...24)),
            JSONProperty("status", status),
            JSONProperty("perServing", .object(nutrients.map { JSONProperty($0, amount) })),
            JSONProperty("unmatched", .array(of: name, count: 0...40)),
            JSONProperty("estimated", .array(of: name, count: 0...40)),
            JSONProperty("ingredients", .array(of: match, count: 0...40)),
        ])
    }()
}

extension JSONShape {
    /// An object of the contract: with a server-assigned UUID `id` first in the shape clients receive, without one in
    /// the shape the model writes.
    static func entity(_ properties: [JSONProperty], withID: Bool) -> JSONShape {
        .object((withID ? [JSONProperty("id", .uuid)] : []) + properties)
    }
}

/// A scan answer that broke the contract, with every violation.
public struct ScanResponseValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    public let violations: [JSONViolation]

    public init(violations: [JSONViolation]) {
        self.violations = violations
    }

    public var description: String {
        "invalid scan answer: " + violations.map(\.description).joined(separator: "; ")
    }
}

extension JSONShape {
    /// `value` with every `id` this shape declares removed.
    func removingIDs(in value: JSONValue) -> JSONValue {
        settingIDs(in: value, at: "$") { _, _ in nil }
    }

    /// `value`, found at `path` and carrying no ids, with every `id` this shape declares set to the UUID derived from
    /// `seed`, the entity's path and its JSON (``UUID/init(derivingFrom:path:entity:)``): the same element at the same
    /// place of an answer gets the same ids whether it is validated whole or on its own, in any attempt.
    func derivingIDs(in value: JSONValue, at path: String, seed: UUID) -> JSONValue {
        settingIDs(in: value, at: path) { entity, path in
            .string(UUID(derivingFrom: seed, path: path, entity: entity).uuidString.lowercased())
        }
    }

    /// `value` with every `id` this shape declares set to what `id` makes of the entity (without its `id`) and its
    /// path, or removed when it makes nil.
    private func settingIDs(in value: JSONValue, at path: String, _ id: (JSONValue, String) -> JSONValue?) -> JSONValue {
        switch (self, value) {
        case (.object(let properties), .object(let original)):
            var object = original
            for property in properties {
                if property.name == "id", case .uuid = property.shape {
                    var entity = original
                    entity["id"] = nil
                    object["id"] = id(.object(entity), path)
                } else if let member = object[property.name] {
                    object[property.name] = property.shape.settingIDs(in: member, at: "\(path).\(property.name)", id)
                }
            }
            return .object(object)
        case (.array(let element, _), .array(let elements)):
            return .array(elements.enumerated().map { index, item in element.settingIDs(in: item, at: "\(path)[\(index)]", id) })
        case (.nullable(let wrapped), _), (.constrained(let wrapped, _), _):
            return wrapped.settingIDs(in: value, at: path, id)
        default:
            return value
        }
    }
}
