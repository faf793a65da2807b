import Foundation
import KiwiStrictJSON

/// The rules of a dish scan's answer (`mode=dish`), from one description as for fridge answers
/// (``ScanResponseContract``): the model writes `{"dish": {…} | null}` without ids; clients receive the dish inside a
/// scan response, with server-assigned ids, without its recipe when the guard withheld it.
public enum DishAnswerContract {
    /// A dish answer as the model writes it.
    public static let modelAnswer = JSONShape.object([JSONProperty("dish", .nullable(dish(withIDs: false)))])
    /// The JSON Schema for OpenAI Structured Outputs of an answer written in `language`.
    public static func jsonSchema(answeringIn language: AnswerLanguage) -> JSONValue {
        ScanResponseContract.schema(of: modelAnswer, answeringIn: language)
    }
    /// The dish as clients receive it.
    static let clientDish = dish(withIDs: true)

    /// Checks a model's dish answer against every rule and returns it as a dish scan's response, with server ids
    /// derived from `idSeed` (the scan's id) and the answer, as for fridge answers. Throws every violation found, each
    /// with its JSON path.
    public static func validateModelAnswer(_ data: Data, idSeed: UUID) throws(ScanResponseValidationError) -> ScanResponse {
        let withIDs = JSONShape.object([JSONProperty("dish", .nullable(clientDish))])
        let checked = try ScanResponseContract.check(try ScanResponseContract.parse(data), against: modelAnswer, ignoringIDsOf: withIDs)
        let value = withIDs.derivingIDs(in: checked, at: "$", seed: idSeed)
        let answer = try ScanResponseContract.decode(value, as: ModelAnswer.self)
        return ScanResponse(ingredients: [], recipes: [], mode: .dish, dish: answer.dish)
    }

    private struct ModelAnswer: Decodable {
        var dish: DishAnswer?
    }

    private static func dish(withIDs: Bool) -> JSONShape {
        func object(_ properties: [JSONProperty]) -> JSONShape { .entity(properties, withID: withIDs) }
        // `quantity` is the amount as text, which clients read; `amount` and `unit` the same as a fridge recipe has it.
        let ingredient = object(
            [
                JSONProperty("name", .string(length: 1...100)), ScanResponseContract.canonicalNameProperty(withIDs: withIDs),
                JSONProperty("quantity", .string(length: 1...50)),
            ] + ScanResponseContract.quantityProperties(withIDs: withIDs)
        )
        let stepCount = 5...20
        let recipe = JSONShape.constrained(
            object(
                [
                    JSONProperty("name", .string(length: 1...200)),
                    JSONProperty("summary", .string(length: 1...500)),
                    JSONProperty("cookTimeMinutes", .integer(1...480)),
                    JSONProperty("difficulty", .oneOf(DishDifficulty.allCases.map(\.rawValue))),
                    JSONProperty("servings", .integer(1...12)),
                    JSONProperty("ingredients", .array(of: .constrained(ingredient, ScanResponseContract.quantityRule), count: 1...40)),
                    JSONProperty("steps", .array(of: .string(length: 1...500), count: stepCount)),
                    JSONProperty("makeItFasterTip", .nullable(.string(length: 0...300))),
                    ScanResponseContract.allergensProperty(withIDs: withIDs),
                    ScanResponseContract.stepDetailsProperty(count: stepCount, withIDs: withIDs),
                ] + (withIDs ? [JSONProperty("nutrition", RecipeNutrition.shape, required: false), ScanResponseContract.languageProperty] : [])
            ),
            ScanResponseContract.stepDetailsRule
        )
        return object([
            JSONProperty("name", .string(length: 1...100)),
            JSONProperty("cuisine", .string(length: 1...50)),
            JSONProperty("confidence", .number(0...1)),
            // Clients see no recipe when the guard withheld it; the model always writes one.
            JSONProperty("recipe", recipe, required: !withIDs),
        ])
    }
}
