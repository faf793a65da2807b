import Foundation
import KiwiDietGuard
import KiwiModels
import KiwiStrictJSON
import Testing

/// The guard reads every free-text member a model writes in a recipe, found by walking the contract's shapes rather
/// than listed by hand: a text member added to a recipe later is covered, or this test fails.
@Suite("Allergen guard coverage of the recipe shapes")
struct ShapeCoverageTests {
    let dietGuard = DietGuard()
    let peanutAllergy = KitchenProfile(allergies: [.peanuts])

    /// A fridge answer with one recipe that contains no peanut, its quantities, step details and ingredients' plain English
    /// names as the model writes them.
    static let cleanFridgeAnswer = """
        {"ingredients": [], "recipes": [{"name": "Tomato salad", "summary": "Ripe tomatoes with olive oil.", "cookTimeMinutes": 5,
        "difficulty": "easy", "ingredients": [{"name": "Tomatoes", "canonicalName": "tomatoes", "isDetected": true, "substitution": "Cherry tomatoes", "amount": 3,
        "unit": "piece"}, {"name": "Olive oil", "canonicalName": "olive oil", "isDetected": false, "substitution": null, "amount": 1, "unit": "tbsp"}, {"name": "Salt", "canonicalName": "salt",
        "isDetected": false, "substitution": null, "amount": 1, "unit": "pinch"}], "steps": ["Slice the tomatoes.", "Dress them and rest."],
        "makeItFasterTip": "Use cherry tomatoes.", "allergens": [], "servings": 2, "stepDetails": [{"durationMinutes": null},
        {"durationMinutes": 5}]}]}
        """

    /// A dish answer whose recipe contains no peanut.
    static let cleanDishAnswer = """
        {"dish": {"name": "Tomato soup", "cuisine": "Italian", "confidence": 0.9, "recipe": {"name": "Tomato soup",
        "summary": "A smooth soup of tomatoes.", "cookTimeMinutes": 30, "difficulty": "easy", "servings": 2, "ingredients": [
        {"name": "Chopped tomatoes", "canonicalName": "canned tomatoes", "quantity": "400 g tin", "amount": 1, "unit": "can"}, {"name": "Onion", "canonicalName": "onion", "quantity": "1",
        "amount": 1, "unit": "piece"}, {"name": "Salt", "canonicalName": "salt", "quantity": "to taste", "amount": null, "unit": "to taste"}],
        "steps": ["Chop the onion.", "Soften it in oil.", "Add the tomatoes.", "Simmer.", "Blend and season."],
        "makeItFasterTip": "Use passata.", "allergens": [], "stepDetails": [{"durationMinutes": null}, {"durationMinutes": 8},
        {"durationMinutes": null}, {"durationMinutes": 15}, {"durationMinutes": null}]}}}
        """

    /// The paths of the free-text members of `shape`, an array's first element standing for all of them (a fridge
    /// answer's recipes are an array: its paths start with the first recipe's index). A `oneOf`
    /// (a unit, a difficulty, an allergen group) is not free text: the model can only pick from its list.
    static func textPaths(of shape: JSONShape, at path: [String] = []) -> [[String]] {
        switch shape {
        case .object(let properties): properties.flatMap { textPaths(of: $0.shape, at: path + [$0.name]) }
        case .array(let element, _): textPaths(of: element, at: path + ["0"])
        case .nullable(let wrapped), .constrained(let wrapped, _): textPaths(of: wrapped, at: path)
        case .string: [path]
        case .uuid, .number, .integer, .boolean, .oneOf: []
        }
    }

    /// The shape of `name` in an object shape, unwrapping nullables and array elements on the way.
    static func member(_ name: String, of shape: JSONShape) -> JSONShape? {
        switch shape {
        case .object(let properties): properties.first { $0.name == name }?.shape
        case .array(let element, _), .nullable(let element), .constrained(let element, _): member(name, of: element)
        default: nil
        }
    }

    static let fridgeRecipePaths = member("recipes", of: ScanResponseContract.modelAnswer).map { textPaths(of: $0) } ?? []
    static let dishRecipePaths =
        member("dish", of: DishAnswerContract.modelAnswer).flatMap { member("recipe", of: $0) }.map { textPaths(of: $0) } ?? []

    @Test("the clean answers pass the contract and break no peanut allergy")
    func cleanAnswersAreClean() throws {
        let fridge = try ScanResponseContract.validateModelAnswer(Data(Self.cleanFridgeAnswer.utf8), idSeed: UUID())
        let dish = try DishAnswerContract.validateModelAnswer(Data(Self.cleanDishAnswer.utf8), idSeed: UUID())
        #expect(dietGuard.findings(in: fridge, for: peanutAllergy).isEmpty)
        #expect(dietGuard.findings(in: dish, for: peanutAllergy).isEmpty)
    }

    @Test("the walk finds the recipes' text members")
    func walkFindsTheTextMembers() {
        #expect(Self.fridgeRecipePaths.count == 7)
        #expect(Self.dishRecipePaths.contains(["ingredients", "0", "quantity"]))
    }

    @Test("peanut butter in any text member of a fridge recipe is caught", arguments: fridgeRecipePaths)
    func fridgeRecipeMember(_ path: [String]) throws {
        let answer = try StrictJSONParser().parse(Self.cleanFridgeAnswer).replacing(["recipes"] + path, with: "peanut butter")
        let response = try ScanResponseContract.validateModelAnswer(Data(answer.serialized().utf8), idSeed: UUID())
        #expect(dietGuard.findings(in: response, for: peanutAllergy).map(\.index) == [0])
    }

    @Test("peanut butter in any text member of a dish's recipe is caught", arguments: dishRecipePaths)
    func dishRecipeMember(_ path: [String]) throws {
        let answer = try StrictJSONParser().parse(Self.cleanDishAnswer).replacing(["dish", "recipe"] + path, with: "peanut butter")
        let response = try DishAnswerContract.validateModelAnswer(Data(answer.serialized().utf8), idSeed: UUID())
        #expect(dietGuard.findings(in: response, for: peanutAllergy).map(\.index) == [nil])
    }
}

extension JSONValue {
    /// The value with the member or element at `path` (names and indexes), which must exist, replaced by `text`.
    fileprivate func replacing(_ path: some Collection<String>, with text: String) -> JSONValue {
        guard let head = path.first else { return .string(text) }
        switch self {
        case .object(var object):
            object[head] = object[head]?.replacing(path.dropFirst(), with: text)
            return .object(object)
        case .array(var elements):
            elements[Int(head)!] = elements[Int(head)!].replacing(path.dropFirst(), with: text)
            return .array(elements)
        default:
            return self
        }
    }
}
