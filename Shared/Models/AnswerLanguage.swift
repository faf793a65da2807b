import Foundation

/// A language Kiwi answers in: one whose allergen words its guard reads (docs/architecture.md, "Answers in the cook's
/// language"). A language is added here only with its lexicon, measured on a blind set, so that Kiwi never answers in
/// a language it does not guard.
public enum AnswerLanguage: String, Codable, Hashable, Sendable, CaseIterable {
    case en, de, fr, es, it, nl

    /// The language answers for `profile` are written in: its own, else English. The gateway has already put the
    /// request's `Accept-Language` in a scan's profile that names none.
    public static func of(_ profile: KitchenProfile?) -> AnswerLanguage {
        profile?.language ?? .en
    }

    /// Its name in English, as the model is told it: "German".
    public var englishName: String {
        switch self {
        case .en: "English"
        case .de: "German"
        case .fr: "French"
        case .es: "Spanish"
        case .it: "Italian"
        case .nl: "Dutch"
        }
    }

    /// The supported language an `Accept-Language` header prefers most (RFC 9110, section 12.5.4): its ranges by
    /// weight, each read by its primary subtag ("de-AT" is German, "*" none in particular); nil when it names none Kiwi
    /// answers in, or the header cannot be read. A phone set to a language Kiwi does not guard gets English, not an
    /// error: the caller falls back.
    public static func preferred(by acceptLanguage: String) -> AnswerLanguage? {
        var best: (language: AnswerLanguage, weight: Double)?
        for range in acceptLanguage.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first?.lowercased(), !tag.isEmpty else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                weight = Double(parameter.dropFirst(2)) ?? 0
            }
            let primary = tag.split(separator: "-").first.map(String.init) ?? tag
            guard weight > 0, let language = AnswerLanguage(rawValue: primary) else { continue }
            if best.map({ weight > $0.weight }) ?? true { best = (language, weight) }
        }
        return best?.language
    }
}
