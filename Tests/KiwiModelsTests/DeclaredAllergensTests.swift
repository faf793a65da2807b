import Foundation
import KiwiModels
import KiwiStrictJSON
import Testing

/// Each recipe's `allergens`: the model must declare them, and clients may meet recipes answered before it did.
@Suite("Declared allergens")
struct DeclaredAllergensTests {
    /// The valid fixture as the model writes it, without the first recipe's `allergens`.
    func answerWithoutAllergens() throws -> JSONValue {
        try validAnswer(setting: "recipes.0.allergens", to: nil).withoutIDs
    }

    @Test("a model's answer without a recipe's allergens breaks the contract, as it could not under strict Structured Outputs")
    func answerWithoutAllergensFails() throws {
        #expect {
            try ScanResponseContract.validateModelAnswer(Data(try answerWithoutAllergens().serialized().utf8), idSeed: UUID())
        } throws: { error in
            (error as? ScanResponseValidationError)?.violations == [
                JSONViolation(path: "$.recipes[0].allergens", message: "required field is missing")
            ]
        }
    }

    @Test("the schema sent to the model requires every recipe's allergens, as the validator does")
    func schemaRequiresAllergens() throws {
        #expect(try !JSONSchemaEvaluator().accepts(try answerWithoutAllergens(), schema: ScanResponseContract.jsonSchema(answeringIn: .en)))
    }

    @Test("a model's dish answer without its recipe's allergens breaks the contract, and the dish schema refuses it too")
    func dishAnswerWithoutAllergensFails() throws {
        let answer = dishAnswer(allergens: nil)
        #expect(throws: ScanResponseValidationError.self) {
            try DishAnswerContract.validateModelAnswer(Data(answer.serialized().utf8), idSeed: UUID())
        }
        #expect(try !JSONSchemaEvaluator().accepts(answer, schema: DishAnswerContract.jsonSchema(answeringIn: .en)))
    }

    @Test("a dish recipe's declared allergens reach the response")
    func dishAllergensDecode() throws {
        let answer = dishAnswer(allergens: .array(["eggs"]))
        #expect(try JSONSchemaEvaluator().accepts(answer, schema: DishAnswerContract.jsonSchema(answeringIn: .en)))
        let response = try DishAnswerContract.validateModelAnswer(Data(answer.serialized().utf8), idSeed: UUID())
        #expect(response.dish?.recipe?.allergens == [.eggs])
    }

    @Test("a response recorded before allergens were declared passes the client contract, its allergens unknown rather than none")
    func recordedResponseWithoutAllergens() throws {
        let recorded = try validAnswer(setting: "recipes.0.allergens", to: nil)
        #expect(violations(recorded).isEmpty)
        let response = try ScanResponseContract.validate(Data(recorded.serialized().utf8))
        #expect(response.recipes[0].allergens == nil)
        #expect(response.recipes[1].allergens == [.eggs, .milk])
        let encoded = String(decoding: try KiwiJSON.encoder().encode(response.recipes[0]), as: UTF8.self)
        #expect(!encoded.contains("allergens"))
    }
}
