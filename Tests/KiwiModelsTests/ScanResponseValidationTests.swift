import Foundation
import KiwiModels
import KiwiStrictJSON
import KiwiTestSupport
import Testing

/// One edit to the valid fixture and what the contract must say about it.
struct RuleCase: CustomTestStringConvertible, Sendable {
    let rule: String
    let path: String
    let value: JSONValue?
    /// The path of the violation expected, or nil when the edit must pass.
    let violationAt: String?

    var testDescription: String { "\(rule) \(violationAt == nil ? "passes" : "fails")" }

    static func pass(_ rule: String, _ path: String, _ value: JSONValue?) -> RuleCase {
        RuleCase(rule: rule, path: path, value: value, violationAt: nil)
    }

    static func fail(_ rule: String, _ path: String, _ value: JSONValue?, at violationPath: String? = nil) -> RuleCase {
        RuleCase(rule: rule, path: path, value: value, violationAt: violationPath ?? "$." + path.replacing(/\.(\d+)/) { "[\($0.1)]" })
    }
}

private let uuid = JSONValue.string("0b8e5f7e-6a1c-4c1e-9a51-3f2a9d0c1eff")
private func ingredients(_ count: Int) -> JSONValue {
    .array(
        Array(
            repeating: .object(
                JSONObject([
                    "id": uuid, "name": "Milk", "category": "Dairy", "confidence": .number(JSONNumber(0.5)),
                ])
            ),
            count: count
        )
    )
}
private func recipeIngredients(_ count: Int) -> JSONValue {
    .array(Array(repeating: .object(JSONObject(["id": uuid, "name": "Milk", "isDetected": .bool(true), "substitution": .null])), count: count))
}
private func steps(_ count: Int) -> JSONValue { .array(Array(repeating: .string("Stir."), count: count)) }
func number(_ text: String) -> JSONValue { .number(JSONNumber(text: text, value: Double(text)!)) }
/// The fixture's first recipe ingredient with a quantity.
private func quantified(_ amount: JSONValue, _ unit: JSONValue) -> JSONValue {
    .object(JSONObject(["id": uuid, "name": "Eggs", "isDetected": .bool(true), "substitution": .null, "amount": amount, "unit": unit]))
}
/// `stepDetails` with these durations, `nil` for a step without one.
func stepDetails(_ minutes: [Int?]) -> JSONValue {
    .array(minutes.map { .object(JSONObject(["durationMinutes": $0.map { .number(JSONNumber($0)) } ?? .null])) })
}

/// Every rule of the scan answer contract (docs/architecture.md, "The scan answer contract"), each with a passing and a
/// failing case.
let ruleCases: [RuleCase] = [
    .pass("ingredients: 0 to 40 items", "ingredients", ingredients(40)),
    .fail("ingredients: 0 to 40 items", "ingredients", ingredients(41)),
    .pass("recipes: 0 to 4 items", "recipes", .array([])),
    .fail("recipes: 0 to 4 items", "recipes", .array(Array(repeating: try! validAnswer(setting: "", to: nil).recipe0, count: 5))),

    .pass("ingredient id: a UUID", "ingredients.0.id", uuid),
    .fail("ingredient id: a UUID", "ingredients.0.id", "egg-1"),
    .pass("ingredient name: 1 to 100 characters", "ingredients.0.name", text(100)),
    .fail("ingredient name: 1 to 100 characters", "ingredients.0.name", text(101)),
    .fail("ingredient name: not empty", "ingredients.0.name", text(0)),
    .pass("ingredient category: 1 to 50 characters", "ingredients.0.category", text(50)),
    .fail("ingredient category: 1 to 50 characters", "ingredients.0.category", text(51)),
    .pass("confidence: from 0", "ingredients.0.confidence", number("0")),
    .pass("confidence: to 1", "ingredients.0.confidence", number("1.0")),
    .fail("confidence: at most 1", "ingredients.0.confidence", number("1.01")),
    .fail("confidence: at least 0", "ingredients.0.confidence", number("-0.1")),
    .fail("confidence: a number", "ingredients.0.confidence", "0.5"),

    .pass("recipe id: a UUID", "recipes.0.id", uuid),
    .fail("recipe id: a UUID", "recipes.0.id", .number(JSONNumber(7))),
    .pass("recipe name: 1 to 200 characters", "recipes.0.name", text(200)),
    .fail("recipe name: 1 to 200 characters", "recipes.0.name", text(201)),
    .pass("summary: 1 to 500 characters", "recipes.0.summary", text(500)),
    .fail("summary: 1 to 500 characters", "recipes.0.summary", text(501)),
    .pass("cookTimeMinutes: 1 to 120", "recipes.0.cookTimeMinutes", number("120")),
    .fail("cookTimeMinutes: at most 120", "recipes.0.cookTimeMinutes", number("121")),
    .fail("cookTimeMinutes: at least 1", "recipes.0.cookTimeMinutes", number("0")),
    .fail("cookTimeMinutes: an integer", "recipes.0.cookTimeMinutes", number("12.5")),
    .fail("cookTimeMinutes: a number", "recipes.0.cookTimeMinutes", "12"),
    .pass("difficulty: easy or medium", "recipes.0.difficulty", "medium"),
    .fail("difficulty: easy or medium", "recipes.0.difficulty", "hard"),
    .pass("recipe ingredients: 1 to 20 items", "recipes.0.ingredients", recipeIngredients(20)),
    .fail("recipe ingredients: 1 to 20 items", "recipes.0.ingredients", recipeIngredients(21)),
    .fail("recipe ingredients: at least 1", "recipes.0.ingredients", recipeIngredients(0)),
    .pass("steps: 1 to 15 items", "recipes.0.steps", steps(15)),
    .fail("steps: 1 to 15 items", "recipes.0.steps", steps(16)),
    .fail("steps: at least 1", "recipes.0.steps", steps(0)),
    .pass("step: 1 to 500 characters", "recipes.0.steps.0", text(500)),
    .fail("step: 1 to 500 characters", "recipes.0.steps.0", text(501)),
    .fail("step: not empty", "recipes.0.steps.0", text(0)),
    .pass("makeItFasterTip: null allowed", "recipes.0.makeItFasterTip", .null),
    .pass("makeItFasterTip: up to 300 characters", "recipes.0.makeItFasterTip", text(300)),
    .fail("makeItFasterTip: up to 300 characters", "recipes.0.makeItFasterTip", text(301)),
    .fail("makeItFasterTip: required even when null", "recipes.0.makeItFasterTip", nil),

    .pass("recipe ingredient name: 1 to 100 characters", "recipes.0.ingredients.0.name", text(100)),
    .fail("recipe ingredient name: 1 to 100 characters", "recipes.0.ingredients.0.name", text(101)),
    .pass("isDetected: a boolean", "recipes.0.ingredients.0.isDetected", .bool(false)),
    .fail("isDetected: a boolean", "recipes.0.ingredients.0.isDetected", "true"),
    .pass("substitution: up to 200 characters", "recipes.0.ingredients.0.substitution", text(200)),
    .fail("substitution: up to 200 characters", "recipes.0.ingredients.0.substitution", text(201)),

    .pass("allergens: any of the 14 EU groups", "recipes.0.allergens", .array(KitchenProfile.Allergen.allCases.map { .string($0.rawValue) })),
    .pass("allergens: none", "recipes.0.allergens", .array([])),
    .fail("allergens: only the 14 EU groups", "recipes.0.allergens.1", "nuts"),
    .fail("allergens: at most 14 items", "recipes.0.allergens", .array(Array(repeating: "milk", count: 15))),
    .fail("allergens: a list", "recipes.0.allergens", "milk"),

    .pass("servings: 1 to 12", "recipes.0.servings", number("12")),
    .fail("servings: at most 12", "recipes.0.servings", number("13")),
    .fail("servings: at least 1", "recipes.0.servings", number("0")),
    .fail("servings: an integer", "recipes.0.servings", number("2.5")),
    .pass("amount and unit: a number in a unit", "recipes.0.ingredients.0", quantified(number("2"), "piece")),
    .pass("amount: up to 10000", "recipes.0.ingredients.0", quantified(number("10000"), "g")),
    .fail("amount: up to 10000", "recipes.0.ingredients.0", quantified(number("10001"), "g"), at: "$.recipes[0].ingredients[0].amount"),
    .fail("amount: more than 0", "recipes.0.ingredients.0", quantified(number("0"), "g"), at: "$.recipes[0].ingredients[0].amount"),
    .pass("amount and unit: both null", "recipes.0.ingredients.0", quantified(.null, .null)),
    .pass("unit: to taste, without an amount", "recipes.0.ingredients.0", quantified(.null, "to taste")),
    .pass("unit: US measures", "recipes.0.ingredients.0", quantified(number("0.5"), "fl oz")),
    .fail("unit: one of the units", "recipes.0.ingredients.0", quantified(number("2"), "handful"), at: "$.recipes[0].ingredients[0].unit"),
    .fail("across members: an amount has a unit", "recipes.0.ingredients.0", quantified(number("2"), .null), at: "$.recipes[0].ingredients[0].unit"),
    .fail("across members: a unit has an amount", "recipes.0.ingredients.0", quantified(.null, "g"), at: "$.recipes[0].ingredients[0].amount"),
    .fail(
        "across members: a unit has an amount, even in an answer without amounts",
        "recipes.0.ingredients.0.unit",
        "tbsp",
        at: "$.recipes[0].ingredients[0].amount"
    ),
    .fail(
        "across members: to taste has no amount",
        "recipes.0.ingredients.0",
        quantified(number("1"), "to taste"),
        at: "$.recipes[0].ingredients[0].amount"
    ),
    .pass("stepDetails: one per step", "recipes.0.stepDetails", stepDetails([nil, 3])),
    .pass("durationMinutes: up to 600", "recipes.0.stepDetails", stepDetails([600, nil])),
    .fail("durationMinutes: up to 600", "recipes.0.stepDetails", stepDetails([601, nil]), at: "$.recipes[0].stepDetails[0].durationMinutes"),
    .fail("durationMinutes: at least 1", "recipes.0.stepDetails", stepDetails([0, nil]), at: "$.recipes[0].stepDetails[0].durationMinutes"),
    .fail(
        "durationMinutes: required even when null",
        "recipes.0.stepDetails",
        .array([.object(JSONObject()), .object(JSONObject(["durationMinutes": .null]))]),
        at: "$.recipes[0].stepDetails[0].durationMinutes"
    ),
    .fail("across members: one stepDetails item per step", "recipes.0.stepDetails", stepDetails([nil, nil, 5])),
    .fail("across members: one stepDetails item per step", "recipes.1.stepDetails", stepDetails([20, nil])),

    .fail("required fields present", "recipes.0.summary", nil),
    .fail("required fields present", "ingredients.0.confidence", nil),
    .fail("unknown fields rejected", "recipes.0.calories", .number(JSONNumber(250))),
    .fail("unknown fields rejected", "extra", .bool(true)),
    .fail("null only where nullable", "recipes.0.name", .null),
    .fail("null only where nullable", "ingredients", .null),
]

extension JSONValue {
    /// The first recipe of a valid answer, for building arrays of recipes.
    fileprivate var recipe0: JSONValue {
        guard case .object(let object) = self, case .array(let recipes) = object["recipes"] else { return .null }
        return recipes[0]
    }
}

@Suite("Scan answer validation")
struct ScanResponseValidationTests {
    @Test("the valid fixture passes and decodes")
    func validFixturePasses() throws {
        let response = try ScanResponseContract.validate(try fixture("valid-scan-response.json"))
        #expect(response.ingredients.count == 3)
        #expect(response.recipes.map(\.cookTimeMinutes) == [10, 15])
        #expect(response.recipes[1].makeItFasterTip == nil)
    }

    @Test("an answer with no food is valid")
    func emptyListsAreValid() throws {
        let response = try ScanResponseContract.validate(try fixture("empty-scan-response.json"))
        #expect(response == ScanResponse(ingredients: [], recipes: []))
    }

    @Test("each rule accepts what it allows and names the path of what it refuses", arguments: ruleCases)
    func rule(_ rule: RuleCase) throws {
        let found = violations(try validAnswer(setting: rule.path, to: rule.value))
        if let expected = rule.violationAt {
            #expect(found.map(\.path) == [expected], "\(found)")
        } else {
            #expect(found.isEmpty, "\(found)")
        }
    }

    @Test("a valid model answer becomes a response whose every entity has a server UUID of its own")
    func modelAnswerGetsServerIDs() throws {
        let answer = Data(try StrictJSONParser().parse(try fixture("valid-scan-response.json")).withoutIDs.serialized().utf8)
        let first = try ScanResponseContract.validateModelAnswer(answer, idSeed: UUID())
        let ids = first.ingredients.map(\.id) + first.recipes.flatMap { [$0.id] + $0.ingredients.map(\.id) }
        #expect(ids.count == 3 + 2 + 3)
        #expect(Set(ids).count == ids.count)
        #expect(first.recipes[0].name == "Spinach omelette")
        // The response passes the client-side contract, ids included.
        #expect(throws: Never.self) { try ScanResponseContract.validate(try KiwiJSON.encoder().encode(first)) }
    }

    @Test("ids a model writes of its own are discarded and replaced by server UUIDs")
    func modelWrittenIDsAreReplaced() throws {
        let withModelIDs = try fixture("valid-scan-response.json")
        let original = try ScanResponseContract.validate(withModelIDs)
        let replaced = try ScanResponseContract.validateModelAnswer(withModelIDs, idSeed: UUID())
        #expect(replaced.recipes[0].id != original.recipes[0].id)
        #expect(replaced.ingredients.map(\.id) != original.ingredients.map(\.id))
        #expect(replaced.recipes[0].name == original.recipes[0].name)
    }

    @Test("a model-written id is discarded even when it is not a UUID")
    func malformedModelIDIsDiscarded() throws {
        var answer = try StrictJSONParser().parse(try fixture("valid-scan-response.json"))
        guard case .object(var root) = answer, case .array(var ingredients)? = root["ingredients"], case .object(var first) = ingredients[0]
        else {
            Issue.record("unexpected fixture shape")
            return
        }
        first["id"] = .string("ingredient-1")
        ingredients[0] = .object(first)
        root["ingredients"] = .array(ingredients)
        answer = .object(root)
        let response = try ScanResponseContract.validateModelAnswer(Data(answer.serialized().utf8), idSeed: UUID())
        #expect(response.ingredients.count == 3)
    }

    @Test("text that is not JSON fails at the root")
    func notJSONFails() {
        #expect {
            try ScanResponseContract.validate(Data("Sure! Here are some recipes: ...".utf8))
        } throws: { error in
            let failure = error as? ScanResponseValidationError
            return failure?.violations.count == 1 && failure?.violations.first?.path == "$"
                && failure?.violations.first?.message.hasPrefix("not valid JSON") == true
        }
    }

    @Test("a JSON array instead of an object fails at the root")
    func wrongRootTypeFails() throws {
        #expect(violations(try json("[]")).map(\.path) == ["$"])
    }

    @Test("a duplicated key is refused rather than silently merged")
    func duplicateKeyFails() {
        #expect(throws: ScanResponseValidationError.self) {
            try ScanResponseContract.validate(Data(#"{"ingredients": [], "recipes": [], "recipes": []}"#.utf8))
        }
    }

    @Test("every violation is reported, not only the first")
    func allViolationsReported() throws {
        var document = try validAnswer(setting: "recipes.0.difficulty", to: "hard")
        document.set(["ingredients", "1", "confidence"], to: .number(JSONNumber(2)))
        document.set(["recipes", "1", "steps"], to: .array([]))
        let paths = Set(violations(document).map(\.path))
        #expect(paths == ["$.recipes[0].difficulty", "$.ingredients[1].confidence", "$.recipes[1].steps"])
    }

    @Test("length counts characters as a person sees them, not bytes or code points")
    func lengthCountsGraphemes() throws {
        let family = "👩‍👩‍👧‍👦"  // one character, seven Unicode scalars, 25 UTF-8 bytes
        #expect(violations(try validAnswer(setting: "ingredients.0.name", to: text(100, of: Character(family)))).isEmpty)
        #expect(!violations(try validAnswer(setting: "ingredients.0.name", to: text(101, of: Character(family)))).isEmpty)
        let decomposed = "e\u{301}"  // "é" written as two scalars
        #expect(violations(try validAnswer(setting: "ingredients.0.name", to: text(100, of: Character(decomposed)))).isEmpty)
    }

    @Test("a violation message says what was expected and what was found")
    func messagesAreSpecific() throws {
        let found = violations(try validAnswer(setting: "recipes.0.cookTimeMinutes", to: number("12.5")))
        #expect(found.first?.description == "$.recipes[0].cookTimeMinutes: must be an integer, found 12.5")
    }
}
