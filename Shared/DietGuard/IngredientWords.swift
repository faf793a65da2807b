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
        // ASCII has no diacritics, and lower-casing is all its folding does: most texts skip Foundation's folding.
        let folded =
            text.utf8.allSatisfy { $0 < 0x80 }
            ? text.lowercased() : text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
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

    private init(words: [String], breaks: Set<Int>) {
        self.words = words
        self.breaks = breaks
    }

    /// These words with each one-word compound that `forms` can read split into its words: "peanutbutter" reads as
    /// "peanut butter", "shrimpfried" as "shrimp fried". Breaks keep their place before the words they stood before.
    func splittingCompounds(_ forms: WordForms) -> IngredientWords {
        var split: [String] = []
        var shiftedBreaks: Set<Int> = []
        for (position, word) in words.enumerated() {
            if breaks.contains(position) { shiftedBreaks.insert(split.count) }
            split += forms.parts(of: word) ?? [word]
        }
        if breaks.contains(words.count) { shiftedBreaks.insert(split.count) }
        return IngredientWords(words: split, breaks: shiftedBreaks)
    }

    private static let separatingPunctuation = CharacterSet(charactersIn: ",;()/.:")
    /// Read once: `alphanumerics` is a computed property, a new set value each time it is read.
    private static let wordCharacters = CharacterSet.alphanumerics

    /// What `word` is the singular or a regular plural of: itself, less `s` or `es`, or `ies` made `y`.
    static func singulars(of word: String) -> [String] {
        var singulars = [word]
        if word.hasSuffix("s") { singulars.append(String(word.dropLast())) }
        if word.hasSuffix("es") { singulars.append(String(word.dropLast(2))) }
        if word.hasSuffix("ies") { singulars.append(String(word.dropLast(3)) + "y") }
        return singulars
    }
}

/// How the lexicon reads a word beyond its plurals (docs/architecture.md, "The allergen and diet guard"): a one-word
/// compound of its words is split ("peanutbutter"), and a regular derived form stands for the word it comes from
/// ("creamed", "buttery", "nutty", "cheesier"). Words the lexicon knows are never split, which keeps its false
/// friends whole: "butternut", "eggplant", "coconut", "buckwheat" and "nutmeg" are words of their own.
struct WordForms: Sendable {
    /// Every word of every lexicon entry, and the words the lexicon declares whole or as parts of compounds.
    let known: Set<String>
    /// The entries of one word: only these may be a compound's part of three letters ("egg", "nut", "ham"), so that
    /// a word of a longer name ("mer" of "fruits de mer", "tam" of "som tam") splits no "hammer" or "tamale".
    let oneWordEntries: Set<String>
    /// Words that look derived from a lexicon word but name something else: "minced" garlic, "scalloped" potatoes.
    let notDerived: Set<String>
    /// Lexicon words that are also common English endings, so never a compound's part: "ling" (seedling, curdling).
    let notParts: Set<String>

    /// Reads the words of `entries`: every term, name and marker of the lexicon, its whole words and compound parts.
    init(entries: [String], notDerived: Set<String>, notParts: Set<String>) {
        let words = entries.map { IngredientWords($0).words }
        known = Set(words.joined())
        oneWordEntries = Set(words.filter { $0.count == 1 }.joined())
        self.notDerived = notDerived
        self.notParts = notParts
    }

    /// The suffixes of regular derived forms: creamed, creaming, creamy, creamier, creamiest, creaminess, creamily.
    private static let derivingSuffixes = ["ed", "ing", "y", "ier", "iest", "iness", "ily"]
    /// A compound's parts are at least this long, so that "of", "au" or "s" from a lexicon entry split nothing.
    private static let shortestPart = 3

    /// The words `word` may be a regular derived form of; none for a word the lexicon says is not derived.
    func stems(of word: String) -> [String] {
        guard !notDerived.contains(word) else { return [] }
        var stems: [String] = []
        for suffix in Self.derivingSuffixes where word.hasSuffix(suffix) {
            let stem = String(word.dropLast(suffix.count))
            guard stem.count >= Self.shortestPart else { continue }
            stems += [stem, stem + "e"]
            if let last = stem.last, stem.dropLast().last == last, !"aeiou".contains(last) { stems.append(String(stem.dropLast())) }
        }
        if word.hasSuffix("ied") { stems.append(String(word.dropLast(3)) + "y") }
        return stems
    }

    /// Whether the lexicon knows `word`, in the singular, a plural or a derived form of three letters or more.
    func knows(_ word: String) -> Bool {
        (IngredientWords.singulars(of: word) + stems(of: word)).contains { $0.count >= Self.shortestPart && known.contains($0) }
    }

    /// Whether `part` of a compound is a known word that may stand in one: in the singular or a plural, or, as the
    /// compound's last part, in any form the lexicon reads ("shrimp" + "fried").
    private func isPart(_ part: String, last: Bool) -> Bool {
        (IngredientWords.singulars(of: part) + (last ? stems(of: part) : [])).contains {
            ($0.count > Self.shortestPart ? known.contains($0) : $0.count == Self.shortestPart && oneWordEntries.contains($0))
                && !notParts.contains($0)
        }
    }

    /// The lexicon's words that `word` is a compound of, in order, fewest parts first ("peanut butter", not "pea
    /// nut butter"); nil when the lexicon knows the word or it is no such compound.
    func parts(of word: String) -> [String]? {
        guard word.count >= 2 * Self.shortestPart, !knows(word), word.allSatisfy(\.isLetter) else { return nil }
        let letters = Array(word)
        // A compound begins with a part and ends with one. Most words do neither, and checking their 2n ends first
        // spares them the search of all n² candidate parts, the guard's costliest step.
        let ends = Self.shortestPart...(letters.count - Self.shortestPart)
        guard ends.contains(where: { isPart(String(letters[..<$0]), last: false) }),
            ends.contains(where: { isPart(String(letters[$0...]), last: true) })
        else { return nil }
        var fewest: [[String]?] = Array(repeating: nil, count: letters.count + 1)
        fewest[letters.count] = []
        for start in stride(from: letters.count - Self.shortestPart, through: 0, by: -1) {
            for end in stride(from: letters.count, through: start + Self.shortestPart, by: -1) {
                guard let rest = fewest[end] else { continue }
                let part = String(letters[start..<end])
                guard isPart(part, last: end == letters.count) else { continue }
                if fewest[start].map({ rest.count + 1 < $0.count }) ?? true { fewest[start] = [part] + rest }
            }
        }
        guard let parts = fewest[0], parts.count > 1 else { return nil }
        return parts
    }
}

/// A text as the lexicon reads it: its words with compounds split, and for each word the entry words it may stand for.
struct LexiconReading {
    let text: IngredientWords
    /// For each word, the words it is the singular or a regular plural of.
    let singulars: [Set<String>]
    /// For each word, the words of three letters or more it is a regular derived form of.
    let stems: [Set<String>]
    /// The groups with a term whose first word one of the text's words may stand for: no other group's term can
    /// occur in it, so no other group is searched for.
    let nameableGroups: Set<String>

    init(_ text: IngredientWords, forms: WordForms, groupsByTermStart: [String: [String]]) {
        self.text = text.splittingCompounds(forms)
        singulars = self.text.words.map { Set(IngredientWords.singulars(of: $0)) }
        stems = self.text.words.map { Set(forms.stems(of: $0).filter { $0.count >= 3 }) }
        nameableGroups = Set((singulars + stems).joined().flatMap { groupsByTermStart[$0] ?? [] })
    }
}

/// Lexicon entries indexed by their first word, so that a text is read once rather than once per entry.
struct PhraseIndex: Sendable {
    let phrases: [IngredientWords]
    private let byFirstWord: [String: [Int]]

    init(_ entries: [String]) {
        let phrases = entries.map(IngredientWords.init)
        self.phrases = phrases
        byFirstWord = Dictionary(grouping: phrases.indices.filter { !phrases[$0].words.isEmpty }) { phrases[$0].words[0] }
    }

    /// Where each entry (by its position) occurs in `reading` as consecutive whole words, each in the singular or a
    /// regular plural, with no separating punctuation between them ("beef, bacon" is not "beef bacon"). With
    /// `derived`, an entry's first word may also stand in a derived form: "creamed" for "cream", "soured cream" for
    /// "sour cream"; only the first, so that "on toasted sesame" is not "on toast".
    func occurrences(in reading: LexiconReading, derived: Bool) -> [(entry: Int, words: Range<Int>)] {
        let words = reading.text.words
        var found: [(entry: Int, words: Range<Int>)] = []
        for start in words.indices {
            // An entry is listed under its first word only, so the entries of distinct words are distinct: no set needed.
            let singulars = reading.singulars[start]
            var entries: [Int] = []
            for word in singulars { entries += byFirstWord[word] ?? [] }
            if derived { for word in reading.stems[start] where !singulars.contains(word) { entries += byFirstWord[word] ?? [] } }
            for entry in entries {
                let entryWords = phrases[entry].words
                let end = start + entryWords.count
                guard end <= words.count, (start + 1..<end).allSatisfy({ !reading.text.breaks.contains($0) }),
                    zip(reading.singulars[start + 1..<end], entryWords.dropFirst()).allSatisfy({ $0.contains($1) })
                else { continue }
                found.append((entry, start..<end))
            }
        }
        return found
    }
}
