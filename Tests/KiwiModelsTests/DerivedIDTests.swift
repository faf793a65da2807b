import Foundation
import KiwiModels
import KiwiStrictJSON
import KiwiTestSupport
import Testing

/// A model's answer as the fixture has it, and the same answer validated whole.
private func answer() throws -> (value: JSONValue, data: Data) {
    let data = try fixture("four-recipe-answer.json")
    return (try StrictJSONParser().parse(data), data)
}

/// Every id of a response, in order: ingredients, then each recipe and its ingredients.
private func ids(_ response: ScanResponse) -> [UUID] {
    response.ingredients.map(\.id) + response.recipes.flatMap { [$0.id] + $0.ingredients.map(\.id) }
}

/// The fixture's member `name` (`ingredients` or `recipes`).
private func member(_ name: String, of value: JSONValue) throws -> [JSONValue] {
    guard case .object(let object) = value, case .array(let elements)? = object[name] else {
        throw ScanResponseValidationError(violations: [JSONViolation(path: "$.\(name)", message: "not in the fixture")])
    }
    return elements
}

@Suite("Ids derived from the scan and the answer")
struct DerivedIDTests {
    let seed = UUID(uuidString: "6a0d6f52-2f0c-4d35-9a0e-1c5b1a7d2e11")!

    @Test("the same answer for the same scan gets the same ids")
    func sameSeedSameIDs() throws {
        let data = try answer().data
        let first = try ScanResponseContract.validateModelAnswer(data, idSeed: seed)
        let second = try ScanResponseContract.validateModelAnswer(data, idSeed: seed)
        #expect(ids(first) == ids(second))
        #expect(Set(ids(first)).count == ids(first).count)
    }

    @Test("the same answer for another scan gets other ids")
    func otherSeedOtherIDs() throws {
        let data = try answer().data
        let first = try ScanResponseContract.validateModelAnswer(data, idSeed: seed)
        let other = try ScanResponseContract.validateModelAnswer(data, idSeed: UUID())
        #expect(Set(ids(first)).isDisjoint(with: ids(other)))
    }

    @Test("every id is an RFC 9562 version 8 UUID")
    func idsAreVersion8() throws {
        let response = try ScanResponseContract.validateModelAnswer(try answer().data, idSeed: seed)
        for id in ids(response) {
            #expect(id.uuid.6 >> 4 == 8, "\(id)")
            #expect(id.uuid.8 >> 6 == 0b10, "\(id)")
        }
    }

    @Test("a recipe written differently changes that recipe's ids and no others")
    func changedRecipeChangesOnlyItsIDs() throws {
        let (value, data) = try answer()
        var edited = value
        edited.set(["recipes", "2", "summary"], to: .string("Day-old rice, fried hot."))
        let original = try ScanResponseContract.validateModelAnswer(data, idSeed: seed)
        let changed = try ScanResponseContract.validateModelAnswer(Data(edited.serialized().utf8), idSeed: seed)
        #expect(changed.ingredients.map(\.id) == original.ingredients.map(\.id))
        for index in [0, 1, 3] { #expect(changed.recipes[index] == original.recipes[index]) }
        #expect(changed.recipes[2].id != original.recipes[2].id)
        // The recipe's own ingredients are unchanged, and so are their ids.
        #expect(changed.recipes[2].ingredients == original.recipes[2].ingredients)
    }

    @Test("spacing and ids the model wrote do not change the ids")
    func spacingAndModelIDsDoNotCount() throws {
        let (value, data) = try answer()
        var withModelID = value
        withModelID.set(["recipes", "0", "id"], to: .string("recipe-1"))
        let original = try ScanResponseContract.validateModelAnswer(data, idSeed: seed)
        let compact = try ScanResponseContract.validateModelAnswer(Data(value.serialized().utf8), idSeed: seed)
        let written = try ScanResponseContract.validateModelAnswer(Data(withModelID.serialized().utf8), idSeed: seed)
        #expect(ids(compact) == ids(original))
        #expect(ids(written) == ids(original))
    }

    @Test("the ingredients and each recipe validated on their own equal the whole answer's, ids included")
    func elementsEqualTheWholeAnswers() throws {
        let value = try answer().value
        let whole = try ScanResponseContract.validateModelAnswer(try answer().data, idSeed: seed)
        let ingredients = try ScanResponseContract.validateModelIngredients(.array(try member("ingredients", of: value)), idSeed: seed)
        let recipes = try member("recipes", of: value).enumerated().map { index, recipe in
            try ScanResponseContract.validateModelRecipe(recipe, at: index, idSeed: seed)
        }
        #expect(ingredients == whole.ingredients)
        #expect(recipes == whole.recipes)
    }

    @Test("the same recipe at another index of the answer gets other ids")
    func indexIsPartOfTheID() throws {
        let recipe = try member("recipes", of: try answer().value)[0]
        let first = try ScanResponseContract.validateModelRecipe(recipe, at: 0, idSeed: seed)
        let second = try ScanResponseContract.validateModelRecipe(recipe, at: 1, idSeed: seed)
        #expect(first.id != second.id)
    }

    @Test("a recipe on its own breaks the same rules as in the whole answer, at the same paths")
    func recipeViolationsHaveTheirAnswerPaths() throws {
        var recipe = try member("recipes", of: try answer().value)[1]
        recipe.set(["cookTimeMinutes"], to: .number(JSONNumber(0)))
        recipe.set(["difficulty"], to: .string("hard"))
        #expect {
            try ScanResponseContract.validateModelRecipe(recipe, at: 1, idSeed: seed)
        } throws: { error in
            (error as? ScanResponseValidationError)?.violations.map(\.path) == ["$.recipes[1].cookTimeMinutes", "$.recipes[1].difficulty"]
        }
    }

    @Test("ingredients on their own break the same rules as in the whole answer, at the same paths")
    func ingredientViolationsHaveTheirAnswerPaths() throws {
        var ingredients = JSONValue.array(try member("ingredients", of: try answer().value))
        ingredients.set(["3", "confidence"], to: .number(JSONNumber(1.5)))
        #expect {
            try ScanResponseContract.validateModelIngredients(ingredients, idSeed: seed)
        } throws: { error in
            (error as? ScanResponseValidationError)?.violations.map(\.path) == ["$.ingredients[3].confidence"]
        }
    }

    @Test("a recipe at an index outside the recipes an answer may have is refused", arguments: [-1, 4])
    func recipeOutsideTheAnswerIsRefused(_ index: Int) throws {
        let recipe = try member("recipes", of: try answer().value)[0]
        #expect(throws: ScanResponseValidationError.self) { try ScanResponseContract.validateModelRecipe(recipe, at: index, idSeed: seed) }
    }

    @Test("a dish answer's ids are derived from the scan the same way")
    func dishIDsAreDerived() throws {
        let dish = Data(
            """
            {"dish":{"name":"Shakshuka","cuisine":"Middle Eastern","confidence":0.9,"recipe":{"name":"Shakshuka",\
            "summary":"Eggs in tomato sauce.","cookTimeMinutes":30,"difficulty":"easy","servings":2,\
            "ingredients":[{"name":"eggs","quantity":"4"},{"name":"tomatoes","quantity":"400 g"}],\
            "steps":["Stir.","Stir.","Stir.","Stir.","Stir."],"makeItFasterTip":null,"allergens":["eggs"]}}}
            """.utf8
        )
        let first = try #require(try DishAnswerContract.validateModelAnswer(dish, idSeed: seed).dish?.recipe)
        let second = try #require(try DishAnswerContract.validateModelAnswer(dish, idSeed: seed).dish?.recipe)
        let other = try #require(try DishAnswerContract.validateModelAnswer(dish, idSeed: UUID()).dish?.recipe)
        #expect(first == second)
        #expect(first.id != other.id)
        #expect(Set(first.ingredients.map(\.id)).count == 2)
    }
}
