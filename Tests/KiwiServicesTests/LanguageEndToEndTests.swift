import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import NIOHTTP1
import Testing

@testable import KiwiLLMStub

/// Answers in the cook's language through all three services (docs/architecture.md, "Answers in the cook's language"):
/// the language set in the profile or asked by `Accept-Language`, carried by the job, asked of the model, and the
/// answer guarded in it, with the model's answers dictated to the stub.
@Suite("Answers in the cook's language end to end", .serialized, .timeLimit(.minutes(3)))
struct LanguageEndToEndTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 61)

    /// A fridge answer whose first recipe names peanut only in a step, in the answer's language, and declares nothing.
    func answer(peanutStep: String, keptStep: String) -> String {
        ModelAnswers.fridge([
            ModelAnswers.Dish("Bananentoast", ingredients: ["Toastbrot", "Banane"], steps: [peanutStep]),
            ModelAnswers.Dish("Tomatensalat", ingredients: ["Tomaten", "Olivenöl"], steps: [keptStep]),
        ])
    }

    @Test(
        "a peanut-allergic cook's recipe that spreads peanut butter in a step of their language is withheld",
        arguments: [
            ("de", "Das Brot mit Erdnussbutter bestreichen.", "Die Tomaten in Scheiben schneiden.", "German", "Enthält Erdnüsse"),
            ("fr", "Tartiner le pain de beurre de cacahuète.", "Couper les tomates en tranches.", "French", "Contient des arachides"),
        ]
    )
    func peanutInAStepIsWithheld(language: String, peanutStep: String, keptStep: String, languageName: String, declaration: String) async throws {
        let dictated = answer(peanutStep: peanutStep, keptStep: keptStep)
        try await SystemRig.run(behaviour: StubBehaviour(answers: [dictated])) { rig in
            let token = try await rig.signIn()
            let profile = #"{"allergies": ["peanuts"], "language": "\#(language)"}"#
            #expect(try await rig.putProfile(profile, token: token).status == 200)
            let scan = try await rig.scan(photo, token: token)
            #expect(scan.status == 200)
            let response = try ScanResponseContract.validate(scan.body)
            #expect(response.withheldRecipes.map(\.name) == ["Bananentoast"])
            #expect(response.withheldRecipes.first?.reason.hasPrefix(declaration) == true, "the reason is in the cook's language")
            #expect(response.recipes.map(\.name) == ["Tomatensalat"])
            #expect(response.recipes.map(\.language) == [AnswerLanguage(rawValue: language)])
            let asked = rig.stub.snapshot.recent.first?.parameters.userTexts ?? []
            #expect(asked.contains { $0.contains("in \(languageName), as a cook who speaks it writes them") })
        }
    }

    @Test("the stub answers a German profile in German, and the recipe whose dressing is peanut butter is withheld")
    func stubAnswersInGerman() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let profile = #"{"allergies": ["peanuts"], "language": "de"}"#
            #expect(try await rig.putProfile(profile, token: token).status == 200)
            let scan = try await rig.scan(photo, token: token)
            #expect(scan.status == 200)
            let response = try ScanResponseContract.validate(scan.body)
            #expect(response.withheldRecipes.map(\.name) == ["Möhren-Apfel-Rohkost mit Erdnussdressing"])
            #expect(response.recipes.count == 3 && response.recipes.allSatisfy { $0.language == .de })
            #expect(response.recipes.allSatisfy { !($0.allergens ?? []).contains(.peanuts) })
        }
    }

    @Test("without a language in the profile, the best supported one Accept-Language names is asked for")
    func acceptLanguageChoosesTheLanguage() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let scan = try await rig.scan(photo, token: token, headers: [("Accept-Language", "pt-BR, it;q=0.8, en;q=0.5")])
            #expect(scan.status == 200)
            let response = try ScanResponseContract.validate(scan.body)
            #expect(response.recipes.allSatisfy { $0.language == .it })
            let asked = rig.stub.snapshot.recent.first?.parameters.userTexts ?? []
            #expect(asked.contains { $0.contains("in Italian") })
        }
    }

    @Test("a phone set to a language Kiwi does not answer in gets English, not an error")
    func unsupportedAcceptLanguageGetsEnglish() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let scan = try await rig.scan(photo, token: token, headers: [("Accept-Language", "pt-BR, ja;q=0.5")])
            #expect(scan.status == 200)
            let response = try ScanResponseContract.validate(scan.body)
            #expect(response.recipes.allSatisfy { $0.language == nil })
            #expect(rig.stub.snapshot.recent.first?.parameters.userTexts.contains { $0.contains("Write every name") } == false)
        }
    }

    @Test("a profile asking for a language Kiwi does not guard is refused, naming those it does")
    func unguardedLanguageIsRefused() async throws {
        try await SystemRig.run(workers: 0) { rig in
            let token = try await rig.signIn()
            let put = try await rig.putProfile(#"{"language": "pt"}"#, token: token)
            #expect(put.status == 400)
            #expect(String(decoding: put.body, as: UTF8.self).contains("must be one of en, de, fr, es, it, nl"))
        }
    }
}
