import Foundation

/// The rule every short name a person types shares: a pantry or shopping list item's, a household's, a member's.
/// Trimmed of surrounding white space, it is `lengths` characters (Unicode scalars) long and holds no control
/// character or line break. Each route says in its own words which part was broken.
enum TypedName {
    enum Problem: Error {
        case length
        case lineBreakOrControl
    }

    /// `text` trimmed, or the part of the rule it breaks.
    static func trimmed(_ text: String, lengths: ClosedRange<Int>) -> Result<String, Problem> {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard lengths.contains(trimmed.unicodeScalars.count) else { return .failure(.length) }
        let breaks: [Unicode.GeneralCategory] = [.control, .lineSeparator, .paragraphSeparator]
        guard !trimmed.unicodeScalars.contains(where: { breaks.contains($0.properties.generalCategory) }) else {
            return .failure(.lineBreakOrControl)
        }
        return .success(trimmed)
    }
}
