import Foundation
import KiwiModels
import KiwiStrictJSON
import KiwiTestSupport
import Testing

/// A pantry scan's answer (docs/architecture.md, "Scans from the pantry"): each recipe names the pantry items it uses
/// up, by the ids the scan offered and no others.
@Suite("Pantry scans in the scan answer contract")
struct PantryScanContractTests {
    let rice = UUID()
    let spinach = UUID()
    var rules: ScanResponseContract.ModelRules { ScanResponseContract.ModelRules(usingUp: [rice, spinach]) }

    /// The valid fixture's model answer as written today (two recipes), its first recipe using up `ids`, its second
    /// nothing.
    func answer(usingUp ids: [String]) throws -> JSONValue {
        var answer = try validAnswer(setting: "", to: nil).withoutIDs.writtenNow
        answer.set(["recipes", "0", "usesUp"], to: .array(ids.map(JSONValue.string)))
        answer.set(["recipes", "1", "usesUp"], to: .array([]))
        return answer
    }

    func id(_ id: UUID) -> String { id.uuidString.lowercased() }

    @Test("a recipe's usesUp of offered ids is validated and decoded, and written in lower case")
    func offeredIDsDecode() throws {
        let data = Data(try answer(usingUp: [id(spinach), id(rice)]).serialized().utf8)
        let response = try ScanResponseContract.validateModelAnswer(data, by: rules, idSeed: UUID())
        #expect(response.recipes[0].usesUp == [spinach, rice])
        let written = try StrictJSONParser().parse(try KiwiJSON.encoder().encode(response.recipes[0]))
        guard case .object(let recipe) = written else { throw CancellationError() }
        #expect(recipe["usesUp"] == .array([.string(id(spinach)), .string(id(rice))]))
    }

    @Test("an id the scan did not offer is a violation at its path")
    func unknownIDIsRefused() throws {
        let data = Data(try answer(usingUp: [id(rice), id(UUID())]).serialized().utf8)
        #expect {
            try ScanResponseContract.validateModelAnswer(data, by: rules, idSeed: UUID())
        } throws: { error in
            (error as? ScanResponseValidationError)?.violations.map(\.path) == ["$.recipes[0].usesUp[1]"]
        }
    }

    @Test("an id listed twice in one recipe is a violation")
    func repeatedIDIsRefused() throws {
        let data = Data(try answer(usingUp: [id(rice), id(rice)]).serialized().utf8)
        #expect {
            try ScanResponseContract.validateModelAnswer(data, by: rules, idSeed: UUID())
        } throws: { error in
            (error as? ScanResponseValidationError)?.violations.map(\.path) == ["$.recipes[0].usesUp[1]"]
        }
    }

    @Test("a streamed recipe is held to the same ids")
    func streamedRecipeIsHeldToTheIDs() throws {
        guard case .object(let root) = try answer(usingUp: [id(UUID())]), case .array(let recipes)? = root["recipes"] else {
            throw CancellationError()
        }
        #expect(throws: ScanResponseValidationError.self) {
            try ScanResponseContract.validateModelRecipe(recipes[0], at: 0, by: rules, idSeed: UUID())
        }
    }

    @Test("a pantry scan's recipe must say what it uses up; a photo scan's may not")
    func usesUpBelongsToPantryScans() throws {
        var answer = try self.answer(usingUp: [])
        #expect(ScanResponseContract.modelAnswer.violations(of: answer).map(\.path) == ["$.recipes[0].usesUp", "$.recipes[1].usesUp"])
        answer.set(["recipes", "0", "usesUp"], to: nil)
        #expect(rules.answer.violations(of: answer).map(\.path) == ["$.recipes[0].usesUp"])
    }

    @Test("the schema sent to the model enumerates the offered ids and no others")
    func schemaEnumeratesTheIDs() throws {
        let evaluator = JSONSchemaEvaluator()
        #expect(try evaluator.accepts(try answer(usingUp: [id(rice)]), schema: rules.answer.jsonSchema))
        #expect(try !evaluator.accepts(try answer(usingUp: [id(UUID())]), schema: rules.answer.jsonSchema))
    }

    @Test("clients receive usesUp as pantry ids; a response without it still validates")
    func clientsReceiveUsesUp() throws {
        var response = try validAnswer(setting: "", to: nil)
        #expect(violations(response).isEmpty)
        response.set(["recipes", "0", "usesUp"], to: .array([.string(id(rice))]))
        #expect(violations(response).isEmpty, "\(violations(response))")
        response.set(["recipes", "0", "usesUp"], to: .array(["rice"]))
        #expect(violations(response).map(\.path) == ["$.recipes[0].usesUp[0]"])
    }
}
