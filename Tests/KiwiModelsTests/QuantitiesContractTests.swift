import Foundation
import KiwiModels
import KiwiStrictJSON
import KiwiTestSupport
import Testing

/// A recipe's quantities, servings and step details in the answer contract: required of the model, absent from answers
/// recorded before them, which still validate and read as they did.
@Suite("Quantities in the scan answer contract")
struct QuantitiesContractTests {
    /// The valid fixture's model answer with quantities: 2 servings, the eggs counted, the butter to taste, the first
    /// step untimed and the second timed.
    func quantifiedAnswer() throws -> JSONValue {
        var answer = try validAnswer(setting: "", to: nil).withoutIDs.writtenNow
        answer.set(["recipes", "0", "ingredients", "0", "amount"], to: number("3"))
        answer.set(["recipes", "0", "ingredients", "0", "unit"], to: "piece")
        answer.set(["recipes", "0", "ingredients", "1", "unit"], to: "to taste")
        answer.set(["recipes", "0", "stepDetails"], to: stepDetails([nil, 4]))
        return answer
    }

    @Test("a model answer's quantities, servings and step details are validated and decoded")
    func quantitiesDecode() throws {
        let answer = Data(try quantifiedAnswer().serialized().utf8)
        let recipe = try ScanResponseContract.validateModelAnswer(answer, idSeed: UUID()).recipes[0]
        #expect(recipe.servings == 2)
        #expect(recipe.ingredients.map(\.amount) == [3, nil])
        #expect(recipe.ingredients.map(\.unit) == [.piece, .toTaste])
        #expect(recipe.stepDetails == [StepDetail(durationMinutes: nil), StepDetail(durationMinutes: 4)])
    }

    @Test("an answer recorded before quantities validates and encodes back to exactly its old JSON")
    func olderAnswerEncodesAsBefore() throws {
        let data = try fixture("four-recipe-answer.json")
        let response = try ScanResponseContract.validateModelAnswer(data, idSeed: UUID())
        #expect(response.recipes.allSatisfy { $0.servings == nil && $0.stepDetails == nil && $0.nutrition == nil })
        guard case .object(var expected) = try StrictJSONParser().parse(data) else { throw CancellationError() }
        (expected["withheldRecipes"], expected["mode"]) = (.array([]), .string("fridge"))
        let encoded = try StrictJSONParser().parse(try KiwiJSON.encoder().encode(response)).withoutIDs
        #expect(canonical(encoded) == canonical(.object(expected)))
    }

    @Test(
        "the streamed recipe validator refuses each rule across members, naming its path",
        arguments: [
            (["ingredients", "0", "unit"], JSONValue.null, "$.recipes[2].ingredients[0].unit"),
            (["ingredients", "1", "amount"], number("1"), "$.recipes[2].ingredients[1].amount"),
            (["ingredients", "0", "amount"], .null, "$.recipes[2].ingredients[0].amount"),
            (["stepDetails"], stepDetails([nil]), "$.recipes[2].stepDetails"),
        ]
    )
    func streamedRecipeRules(_ path: [String], _ value: JSONValue, _ violation: String) throws {
        var recipe = try #require(try quantifiedAnswer().recipes.first)
        recipe.set(path, to: value)
        #expect {
            try ScanResponseContract.validateModelRecipe(recipe, at: 2, idSeed: UUID())
        } throws: { error in
            (error as? ScanResponseValidationError)?.violations.map(\.path) == [violation]
        }
    }

    @Test("a whole answer that breaks a rule across members is refused, naming its path")
    func wholeAnswerRules() throws {
        var answer = try quantifiedAnswer()
        answer.set(["recipes", "1", "stepDetails"], to: stepDetails([nil, nil]))
        #expect {
            try ScanResponseContract.validateModelAnswer(Data(answer.serialized().utf8), idSeed: UUID())
        } throws: { error in
            (error as? ScanResponseValidationError)?.violations.map(\.path) == ["$.recipes[1].stepDetails"]
        }
    }

    @Test("a dish answer's quantities and step details are validated and decoded")
    func dishQuantitiesDecode() throws {
        var answer = dishAnswer()
        answer.set(["dish", "recipe", "stepDetails", "2", "durationMinutes"], to: number("10"))
        let recipe = try #require(try DishAnswerContract.validateModelAnswer(Data(answer.serialized().utf8), idSeed: UUID()).dish?.recipe)
        #expect(recipe.ingredients.map(\.amount) == [4] && recipe.ingredients.map(\.unit) == [.piece])
        #expect(recipe.ingredients.map(\.quantity) == ["4"])
        #expect(recipe.stepDetails?.map(\.durationMinutes) == [nil, nil, 10, nil, nil])
    }

    @Test(
        "a dish answer that breaks a rule across members is refused, naming its path",
        arguments: [
            (["ingredients", "0", "unit"], JSONValue.null, "$.dish.recipe.ingredients[0].unit"),
            (["stepDetails"], stepDetails(Array(repeating: nil, count: 6)), "$.dish.recipe.stepDetails"),
        ]
    )
    func dishRules(_ path: [String], _ value: JSONValue, _ violation: String) {
        var answer = dishAnswer()
        answer.set(["dish", "recipe"] + path, to: value)
        #expect {
            try DishAnswerContract.validateModelAnswer(Data(answer.serialized().utf8), idSeed: UUID())
        } throws: { error in
            (error as? ScanResponseValidationError)?.violations.map(\.path) == [violation]
        }
    }

    @Test("a dish answer recorded before quantities still validates, with none")
    func olderDishAnswerValidates() throws {
        var answer = dishAnswer()
        for path in [["stepDetails"], ["ingredients", "0", "amount"], ["ingredients", "0", "unit"]] {
            answer.set(["dish", "recipe"] + path, to: nil)
        }
        let recipe = try #require(try DishAnswerContract.validateModelAnswer(Data(answer.serialized().utf8), idSeed: UUID()).dish?.recipe)
        #expect(recipe.stepDetails == nil && recipe.ingredients[0].amount == nil && recipe.ingredients[0].unit == nil)
    }

    @Test("the schemas sent to the model list servings, stepDetails, amount and unit as required")
    func schemasRequireTheNewMembers() throws {
        let recipe = try #require(schema(ScanResponseContract.jsonSchema(answeringIn: .en), at: ["recipes"]))
        #expect(required(recipe).isSuperset(of: ["servings", "stepDetails"]))
        #expect(required(try #require(schema(recipe, at: ["ingredients"]))).isSuperset(of: ["amount", "unit"]))
        #expect(required(try #require(schema(recipe, at: ["stepDetails"]))) == ["durationMinutes"])
        let dishRecipe = try #require(schema(DishAnswerContract.jsonSchema(answeringIn: .en), at: ["dish", "recipe"]))
        #expect(required(dishRecipe).isSuperset(of: ["servings", "stepDetails"]))
        #expect(required(try #require(schema(dishRecipe, at: ["ingredients"]))) == ["name", "quantity", "amount", "unit"])
    }

    @Test("the model's units are the pantry's, to taste included, or null")
    func unitsAreThePantrys() throws {
        let ingredient = try #require(schema(ScanResponseContract.jsonSchema(answeringIn: .en), at: ["recipes", "ingredients"]))
        let unit = try #require(member(ingredient, "unit"))
        #expect(
            unit
                == .object(
                    JSONObject(["type": .array(["string", "null"]), "enum": .array(QuantityUnit.allCases.map { .string($0.rawValue) } + [.null])])
                )
        )
    }

    @Test("nutrition is the server's: clients receive it, a model answer may not write it")
    func nutritionIsTheServers() throws {
        var response = try validAnswer(setting: "", to: nil)
        response.set(["recipes", "0", "nutrition"], to: try StrictJSONParser().parse(try KiwiJSON.encoder().encode(Self.nutrition)))
        #expect(violations(response).isEmpty, "\(violations(response))")
        var answer = try quantifiedAnswer()
        answer.set(["recipes", "0", "nutrition"], to: try StrictJSONParser().parse(try KiwiJSON.encoder().encode(Self.nutrition)))
        #expect(ScanResponseContract.modelAnswer.violations(of: answer).map(\.path) == ["$.recipes[0].nutrition"])
    }

    static let nutrition: RecipeNutrition = {
        let amount = NutrientAmount(value: 12.5, status: .partial)
        return RecipeNutrition(
            servings: 2,
            status: .partial,
            perServing: NutrientValues(
                energyKcal: amount,
                proteinG: amount,
                fatG: amount,
                saturatedFatG: amount,
                carbohydrateG: amount,
                sugarsG: amount,
                fibreG: amount,
                sodiumMg: amount
            ),
            unmatched: ["Butter"],
            estimated: ["Eggs"],
            ingredients: [
                IngredientNutritionMatch(
                    name: "Eggs",
                    food: "Egg, whole, raw, fresh",
                    dataset: "sr_legacy",
                    confidence: 1,
                    grams: 150,
                    estimated: true
                ),
                IngredientNutritionMatch(name: "Butter", food: nil, dataset: nil, confidence: nil, grams: nil, estimated: false),
            ]
        )
    }()

    /// The schema of the items of the arrays, or the objects, along `path` from `schema`'s properties.
    private func schema(_ schema: JSONValue, at path: [String]) -> JSONValue? {
        path.reduce(Optional(schema)) { current, key in
            guard let found = current.flatMap({ member($0, key) }) else { return nil }
            if case .object(let object) = found, let items = object["items"] { return items }
            return found
        }
    }

    private func member(_ schema: JSONValue, _ name: String) -> JSONValue? {
        guard case .object(let object) = schema, case .object(let properties)? = object["properties"] else { return nil }
        return properties[name]
    }

    private func required(_ schema: JSONValue) -> Set<String> {
        guard case .object(let object) = schema, case .array(let names)? = object["required"] else { return [] }
        return Set(names.compactMap { if case .string(let name) = $0 { name } else { nil } })
    }
}

extension JSONValue {
    /// A fridge answer's recipes.
    fileprivate var recipes: [JSONValue] {
        guard case .object(let object) = self, case .array(let recipes)? = object["recipes"] else { return [] }
        return recipes
    }
}
