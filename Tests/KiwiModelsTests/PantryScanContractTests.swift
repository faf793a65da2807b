import Foundation
import KiwiModels
import KiwiStrictJSON
import KiwiTestSupport
import Testing

/// A pantry scan's answer (docs/architecture.md, "Scans from the pantry"): each recipe names the pantry items it uses
/// up, by the labels the scan offered them under and no others, which the validated answer turns into the items' ids.
@Suite("Pantry scans in the scan answer contract")
struct PantryScanContractTests {
    let rice = UUID()
    let spinach = UUID()
    var rules: ScanResponseContract.ModelRules { ScanResponseContract.ModelRules(usingUp: [rice, spinach]) }

    /// The valid fixture's model answer as written today (two recipes), its first recipe using up the items labelled
    /// `labels`, its second nothing.
    func answer(usingUp labels: [String]) throws -> JSONValue {
        var answer = try validAnswer(setting: "", to: nil).withoutIDs.writtenNow
        answer.set(["recipes", "0", "usesUp"], to: .array(labels.map(JSONValue.string)))
        answer.set(["recipes", "1", "usesUp"], to: .array([]))
        return answer
    }

    func id(_ id: UUID) -> String { id.uuidString.lowercased() }

    @Test("a recipe's usesUp of offered labels is validated and decoded as the items' ids, written in lower case")
    func offeredLabelsDecode() throws {
        let data = Data(try answer(usingUp: ["p2", "p1"]).serialized().utf8)
        let response = try ScanResponseContract.validateModelAnswer(data, by: rules, idSeed: UUID())
        #expect(response.recipes[0].usesUp == [spinach, rice])
        let written = try StrictJSONParser().parse(try KiwiJSON.encoder().encode(response.recipes[0]))
        guard case .object(let recipe) = written else { throw CancellationError() }
        #expect(recipe["usesUp"] == .array([.string(id(spinach)), .string(id(rice))]))
    }

    @Test("a label the scan did not offer, or an item's id, is a violation at its path", arguments: ["p3", "p0"])
    func unknownLabelIsRefused(_ label: String) throws {
        let data = Data(try answer(usingUp: ["p1", label]).serialized().utf8)
        #expect {
            try ScanResponseContract.validateModelAnswer(data, by: rules, idSeed: UUID())
        } throws: { error in
            (error as? ScanResponseValidationError)?.violations.map(\.path) == ["$.recipes[0].usesUp[1]"]
        }
    }

    @Test("an id listed twice in one recipe is a violation")
    func repeatedIDIsRefused() throws {
        let data = Data(try answer(usingUp: ["p1", "p1"]).serialized().utf8)
        #expect {
            try ScanResponseContract.validateModelAnswer(data, by: rules, idSeed: UUID())
        } throws: { error in
            (error as? ScanResponseValidationError)?.violations.map(\.path) == ["$.recipes[0].usesUp[1]"]
        }
    }

    @Test("a streamed recipe is held to the same labels, and named by the same ids")
    func streamedRecipeIsHeldToTheLabels() throws {
        guard case .object(let root) = try answer(usingUp: ["p2"]), case .array(let recipes)? = root["recipes"] else { throw CancellationError() }
        #expect(try ScanResponseContract.validateModelRecipe(recipes[0], at: 0, by: rules, idSeed: UUID()).usesUp == [spinach])
        guard case .object(let wrong) = try answer(usingUp: [id(spinach)]), case .array(let named)? = wrong["recipes"] else {
            throw CancellationError()
        }
        #expect(throws: ScanResponseValidationError.self) {
            try ScanResponseContract.validateModelRecipe(named[0], at: 0, by: rules, idSeed: UUID())
        }
    }

    @Test("a pantry scan's recipe must say what it uses up; a photo scan's may not")
    func usesUpBelongsToPantryScans() throws {
        var answer = try self.answer(usingUp: [])
        #expect(ScanResponseContract.modelAnswer.violations(of: answer).map(\.path) == ["$.recipes[0].usesUp", "$.recipes[1].usesUp"])
        answer.set(["recipes", "0", "usesUp"], to: nil)
        #expect(rules.answer.violations(of: answer).map(\.path) == ["$.recipes[0].usesUp"])
    }

    @Test("the schema sent to the model enumerates the offered labels and no others")
    func schemaEnumeratesTheLabels() throws {
        let evaluator = JSONSchemaEvaluator()
        #expect(try evaluator.accepts(try answer(usingUp: ["p1"]), schema: ScanResponseContract.schema(of: rules.answer, answeringIn: .en)))
        #expect(try !evaluator.accepts(try answer(usingUp: [id(rice)]), schema: ScanResponseContract.schema(of: rules.answer, answeringIn: .en)))
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
