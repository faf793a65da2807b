import Foundation
import KiwiAPIClient
import KiwiModels
import KiwiTestSupport
import Testing

@testable import KiwiCLI

@Suite("Printing a streamed scan on a terminal")
struct StreamedAnswerTests {
    let soup = ModelAnswers.Dish("Leek soup", ingredients: ["leeks", "potatoes"])
    let salad = ModelAnswers.Dish("Tomato salad", ingredients: ["tomatoes", "olive oil"])
    let omelette = ModelAnswers.Dish("Omelette", ingredients: ["eggs", "chives"])

    /// What a streamed answer printed, and the answer that printed it.
    final class Printed {
        var text = ""
        lazy var answer = StreamedAnswer { [unowned self] in self.text += $0 }
    }

    /// The answer to `dishes` as the model's contract makes it, ids derived from one scan id.
    func response(_ dishes: [ModelAnswers.Dish]) throws -> ScanResponse {
        try ScanResponseContract.validateModelAnswer(Data(ModelAnswers.fridge(dishes, ingredients: ["leeks"]).utf8), idSeed: Self.scanID)
    }

    /// `response` as the API client decodes a `result`.
    func result(_ response: ScanResponse) throws -> Components.Schemas.ScanResponse {
        try JSONDecoder.iso8601.decode(Components.Schemas.ScanResponse.self, from: KiwiJSON.encoder().encode(response))
    }

    static let scanID = UUID(uuidString: "6f1c2a7e-0b4d-4c55-9a0e-3d2f1e8b7c61")!

    @Test("a result that begins with what was shown prints only what it adds")
    func agreeingResultAddsOnlyTheRest() throws {
        let whole = try response([soup, salad])
        let printed = Printed()
        try printed.answer.show(.ingredients(whole.ingredients))
        try printed.answer.show(.recipe(index: 0, whole.recipes[0]))

        printed.answer.finish(with: try result(whole))

        #expect(printed.text == ScanPrinter.text(try result(whole)) + "\n")
    }

    @Test("a restart prints a note, and the elements that stand come again under it")
    func restartPrintsANoteThenWhatStands() throws {
        let first = try response([soup, salad])
        let second = try response([omelette])
        let printed = Printed()
        try printed.answer.show(.ingredients(first.ingredients))
        try printed.answer.show(.recipe(index: 0, first.recipes[0]))
        let before = printed.text

        try printed.answer.show(.restart)
        try printed.answer.show(.ingredients(second.ingredients))
        try printed.answer.show(.recipe(index: 0, second.recipes[0]))
        printed.answer.finish(with: try result(second))

        #expect(printed.text == before + "\n\(StreamedAnswer.restartNote)\n\n" + ScanPrinter.text(try result(second)) + "\n")
    }

    @Test("a result that does not begin with what was shown is printed whole under a note")
    func differingResultIsPrintedWholeUnderANote() throws {
        let shown = try response([soup])
        let whole = try response([omelette, salad])
        let printed = Printed()
        try printed.answer.show(.ingredients(shown.ingredients))
        try printed.answer.show(.recipe(index: 0, shown.recipes[0]))
        let before = printed.text

        printed.answer.finish(with: try result(whole))

        #expect(printed.text == before + "\n\(StreamedAnswer.differsNote)\n\n" + ScanPrinter.text(try result(whole)) + "\n")
    }

    @Test("a restart before anything was shown prints nothing")
    func restartBeforeAnythingShownPrintsNothing() throws {
        let printed = Printed()

        try printed.answer.show(.restart)

        #expect(printed.text.isEmpty)
    }
}
