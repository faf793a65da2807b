import Foundation

/// Text cut into words the way the lexicon is matched (docs/architecture.md, "The allergen and diet guard"):
/// lower-cased, diacritics removed, every character that is not a letter or a digit a separator. So "Crème
/// fraîche", "gluten-free" and "Worcestershire-Sauce" read as "creme fraiche", "gluten free" and "worcestershire sauce".
/// Where punctuation that separates names (`,` `;` `(` `)` `/` `.` `:`) stood is remembered: a free marker does not
/// reach across it.
struct IngredientWords: Sendable, Hashable {
    let words: [String]
    /// The positions of the words that follow such punctuation.
    let breaks: Set<Int>

    init(_ text: String) {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        var words: [String] = []
        var breaks: Set<Int> = []
        var current = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars {
            if Self.wordCharacters.contains(scalar) {
                current.append(scalar)
                continue
            }
            if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
            if Self.separatingPunctuation.contains(scalar) { breaks.insert(words.count) }
        }
        if !current.isEmpty { words.append(String(current)) }
        self.words = words
        self.breaks = breaks
    }

    private static let separatingPunctuation = CharacterSet(charactersIn: ",;()/.:")
    /// Read once: `alphanumerics` is a computed property, a new set value each time it is read.
    private static let wordCharacters = CharacterSet.alphanumerics

    /// Where `phrase` (a lexicon entry: singular words) occurs as consecutive whole words, each word in the singular
    /// or a regular plural, with no separating punctuation between them ("beef, bacon" is not "beef bacon").
    func occurrences(of phrase: IngredientWords) -> [Range<Int>] {
        let count = phrase.words.count
        guard count > 0, words.count >= count else { return [] }
        return (0...(words.count - count)).compactMap { start in
            guard zip(words[start..<start + count], phrase.words).allSatisfy(Self.word(_:matches:)),
                !(start + 1..<start + count).contains(where: breaks.contains)
            else { return nil }
            return start..<start + count
        }
    }

    /// Whether `word` is `entry` or a regular English plural of it: `eggs`, `cookies`, `tomatoes`, `anchovies`.
    static func word(_ word: String, matches entry: String) -> Bool {
        guard word.hasPrefix(entry) else {
            return entry.hasSuffix("y") && word.count == entry.count + 2 && word.hasPrefix(entry.dropLast()) && word.hasSuffix("ies")
        }
        let suffix = word.dropFirst(entry.count)
        return suffix.isEmpty || suffix == "s" || suffix == "es"
    }
}
