import KiwiModels
import Testing

/// Which language an `Accept-Language` header asks answers in, when the profile names none.
@Suite("Answer language from Accept-Language")
struct AnswerLanguageTests {
    @Test(
        "the supported language of the highest weight is chosen, read by its primary subtag",
        arguments: [
            ("de-DE,de;q=0.9,en;q=0.8", AnswerLanguage.de),
            ("pt-BR, fr;q=0.7, en;q=0.5", .fr),
            ("en;q=0.4, it-CH;q=0.8", .it),
            ("NL", .nl),
            ("es-419", .es),
        ]
    )
    func preferred(header: String, language: AnswerLanguage) {
        #expect(AnswerLanguage.preferred(by: header) == language)
    }

    @Test("a header naming no supported language, or refusing them with q=0, names none", arguments: ["pt-BR, ja", "*", "de;q=0", "", ";;,"])
    func noneSupported(header: String) {
        #expect(AnswerLanguage.preferred(by: header) == nil)
    }

    @Test("of equal weights, the first listed wins")
    func firstOfEqualWeights() {
        #expect(AnswerLanguage.preferred(by: "fr, de") == .fr)
    }
}
