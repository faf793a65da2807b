/// A language Kiwi answers in: one whose allergen words its guard reads (docs/architecture.md, "Answers in the cook's
/// language"). A language is added here only with its lexicon, measured on a blind set, so that Kiwi never answers in
/// a language it does not guard.
public enum AnswerLanguage: String, Codable, Hashable, Sendable, CaseIterable {
    case en, de, fr, es, it, nl
}
