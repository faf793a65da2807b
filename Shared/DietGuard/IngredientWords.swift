import Foundation
import Synchronization

/// Text cut into words the way the lexicon is matched (docs/architecture.md, "The allergen and diet guard"):
/// lower-cased, diacritics removed, the ligatures and ß written out, every character that is not a letter or a digit
/// a separator. So "Crème fraîche", "gluten-free", "Worcestershire-Sauce", "d'œufs" and "Weißmehl" read as "creme
/// fraiche", "gluten free", "worcestershire sauce", "d oeufs" and "weissmehl". Where punctuation that separates names
/// (`,` `;` `(` `)` `/` `.` `:`) stood is remembered: a free marker does not reach across it. So is a hyphen that
/// hangs after a word ("Hasel- oder Walnüsse"): a German or Dutch compound's part whose head the next word gives.
struct IngredientWords: Sendable, Hashable {
    let words: [String]
    /// The positions of the words that follow such punctuation.
    let breaks: Set<Int>
    /// The positions of the words a hyphen and a space follow: "hasel" in "Hasel- oder Walnüsse".
    let hanging: Set<Int>

    init(_ text: String) {
        // ASCII has no diacritics, and lower-casing is all its folding does: most texts skip Foundation's folding.
        let folded =
            text.utf8.allSatisfy { $0 < 0x80 }
            ? text.lowercased()
            : Self.writingOutLigatures(text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased())
        var words: [String] = []
        var breaks: Set<Int> = []
        var hanging: Set<Int> = []
        var current = String.UnicodeScalarView()
        var afterHyphen = false
        for scalar in folded.unicodeScalars {
            if Self.wordCharacters.contains(scalar) {
                current.append(scalar)
                afterHyphen = false
                continue
            }
            if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
                afterHyphen = scalar == "-"
            } else if afterHyphen, scalar == " " {
                hanging.insert(words.count - 1)
                afterHyphen = false
            } else {
                afterHyphen = false
            }
            if Self.separatingPunctuation.contains(scalar) { breaks.insert(words.count) }
        }
        if !current.isEmpty { words.append(String(current)) }
        self.words = words
        self.breaks = breaks
        self.hanging = hanging
    }

    private init(words: [String], breaks: Set<Int>, hanging: Set<Int> = []) {
        self.words = words
        self.breaks = breaks
        self.hanging = hanging
    }

    /// These words with each one-word compound that `forms` can read split into its words: "peanutbutter" reads as
    /// "peanut butter", "shrimpfried" as "shrimp fried", "Erdnussbutter" as "erdnuss butter". A word a hyphen hangs
    /// after is first joined to the head the next word gives it, where `forms` reads compounds so: "hasel" of "Hasel-
    /// oder Walnüsse" reads as "haselnusse". Breaks keep their place before the words they stood before.
    func splittingCompounds(_ forms: WordForms) -> IngredientWords {
        var split: [String] = []
        var shiftedBreaks: Set<Int> = []
        for (position, word) in words.enumerated() {
            if breaks.contains(position) { shiftedBreaks.insert(split.count) }
            let whole = hanging.contains(position) ? forms.joined(word, toHeadOf: words[(position + 1)...]) : word
            split += forms.parts(of: whole) ?? [whole]
        }
        if breaks.contains(words.count) { shiftedBreaks.insert(split.count) }
        return IngredientWords(words: split, breaks: shiftedBreaks)
    }

    /// The letters Foundation's folding leaves whole, as their languages write them without: "œ" and "æ" as two
    /// letters, "ß" as "ss".
    private static func writingOutLigatures(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { ligatures[$0] != nil }) else { return text }
        var written = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { written.append(contentsOf: ligatures[scalar]?.unicodeScalars ?? String(scalar).unicodeScalars) }
        return String(written)
    }

    private static let ligatures: [Unicode.Scalar: String] = ["œ": "oe", "æ": "ae", "ß": "ss", "ø": "o"]
    private static let separatingPunctuation = CharacterSet(charactersIn: ",;()/.:")
    /// Read once: `alphanumerics` is a computed property, a new set value each time it is read.
    private static let wordCharacters = CharacterSet.alphanumerics
}

/// A word's ending and what the word may be without it: "ies" → "y" reads "berries" as "berry". A lexicon's language
/// says which endings its plurals, cases and derived forms take (`ingredient-lexicon*.json`, `inflections` and
/// `derivations`).
struct WordEnding: Sendable, Decodable {
    let ending: String
    /// What may stand in the ending's place: "" and "e" for "ed" ("creamed" → "cream", "baked" → "bake").
    let stems: [String]
    /// Whether what the word is without its ending may be shorter than three letters ("fried" → "fry"). Otherwise
    /// short stems are not read, so that "red" is no form of anything.
    var shortStems: Bool? = nil

    /// The words `word` may be with this ending taken off; none when it does not end so.
    func stems(of word: String) -> [String] {
        guard word.hasSuffix(ending) else { return [] }
        let base = String(word.dropLast(ending.count))
        guard shortStems == true || base.count >= WordForms.shortestPart else { return [] }
        return stems.map { base + $0 }
    }
}

/// How a lexicon's language forms words: the endings of its plurals and cases, of its regular derived forms, and
/// whether its compounds may be made with words the lexicon does not know.
struct Morphology: Sendable {
    /// Plural and case endings: a text's word stands for the words these make of it, on every word of a term.
    let inflections: [WordEnding]
    /// Derived forms' endings ("ed", "ing", "y"): only on a term's first word and a compound's last part.
    let derivations: [WordEnding]
    /// Whether a derived form's doubled last consonant is one in its stem: "nutty" → "nut".
    let undoublesConsonants: Bool
    /// Whether a compound may begin or end with a word the lexicon does not know, as German and Dutch ones do
    /// ("Vollmilch", "Weizenvollkornbrot"); otherwise every part must be a word of the lexicon, as in English.
    let opensCompounds: Bool

    /// English's: plurals in "s", "es" and "ies", derived forms in "ed", "ing", "y", "ier", "iest", "iness" and
    /// "ily", compounds of the lexicon's words alone. The lexicon of a language without its own says so.
    static let english = Morphology(
        inflections: [
            .init(ending: "s", stems: [""], shortStems: true), .init(ending: "es", stems: [""], shortStems: true),
            .init(ending: "ies", stems: ["y"], shortStems: true),
        ],
        derivations: ["ed", "ing", "y", "ier", "iest", "iness", "ily"].map { WordEnding(ending: $0, stems: ["", "e"]) }
            + [.init(ending: "ied", stems: ["y"], shortStems: true)],
        undoublesConsonants: true,
        opensCompounds: false
    )
}

/// How the lexicon reads a word beyond its entries (docs/architecture.md, "The allergen and diet guard"): a plural or
/// case stands for its singular, a one-word compound of its words is split ("peanutbutter", "Erdnussbutter"), and
/// a regular derived form stands for the word it comes from ("creamed", "buttery", "nutty", "cheesier"), each as the
/// lexicon's language forms them (``Morphology``). Words the lexicon knows are never split, which keeps its false
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
    let morphology: Morphology

    /// Reads the words of `entries`: every term, name and marker of the lexicon, its whole words and compound parts.
    /// Every form ``knows(_:)`` reads as a known word, worked out once from the lexicon's words.
    private let knownForms: Set<String>
    /// Every word one of whose readings (``readings(of:)``) is a lexicon word: no other word can stand for one.
    private let readableForms: Set<String>
    /// Every form a compound's part may take (``isPart(_:last:)``): not last, a known word's inflections; last, its
    /// derived forms too. Worked out once, so that a compound's search looks each candidate part up once.
    private let partForms: Set<String>
    private let lastPartForms: Set<String>
    /// The readings and compound parts of the words worked out so far (``WordMemo``).
    private let readingsMemo = WordMemo<(singulars: Set<String>, stems: Set<String>)>()
    private let partsMemo = WordMemo<[String]?>()

    /// Reads the words of `entries`: every term, name and marker of the lexicon, its whole words and compound parts.
    init(entries: [String], notDerived: Set<String>, notParts: Set<String>, morphology: Morphology) {
        let words = entries.map { IngredientWords($0).words }
        known = Set(words.joined())
        oneWordEntries = Set(words.filter { $0.count == 1 }.joined())
        self.notDerived = notDerived
        self.notParts = notParts
        self.morphology = morphology
        let readable = known.filter { $0.count >= Self.shortestPart }
        knownForms = Self.forms(of: readable, morphology, derived: true, notDerived: notDerived)
        readableForms = Self.forms(of: known, morphology, derived: true, notDerived: notDerived)
        let oneWordEntries = oneWordEntries
        let parts = readable.filter { ($0.count > Self.shortestPart || oneWordEntries.contains($0)) && !notParts.contains($0) }
        partForms = Self.forms(of: parts, morphology, derived: false, notDerived: notDerived)
        lastPartForms = Self.forms(of: parts, morphology, derived: true, notDerived: notDerived)
    }

    /// The words whose ``singulars(of:)`` (and with `derived`, ``stems(of:)``) hold one of `words`: each word, its
    /// inflections, its derived forms (none of them a word the lexicon says is not derived), the inverse of those
    /// readings ending by ending.
    private static func forms(of words: Set<String>, _ morphology: Morphology, derived: Bool, notDerived: Set<String>) -> Set<String> {
        func inverse(_ ending: WordEnding, of word: String) -> [String] {
            ending.stems.compactMap { stem in
                guard word.hasSuffix(stem) else { return nil }
                let base = word.dropLast(stem.count)
                return ending.shortStems == true || base.count >= shortestPart ? base + ending.ending : nil
            }
        }
        var forms = words
        for word in words {
            for inflection in morphology.inflections { forms.formUnion(inverse(inflection, of: word)) }
            guard derived else { continue }
            var derivedForms = morphology.derivations.flatMap { inverse($0, of: word) }
            // A derived form that doubles its stem's last consonant ("nutty"), as ``stems(of:)`` undoubles it.
            if morphology.undoublesConsonants, let last = word.last, !"aeiou".contains(last) {
                for derivation in morphology.derivations where derivation.shortStems != true {
                    derivedForms += inverse(WordEnding(ending: derivation.ending, stems: [derivation.stems[0]]), of: word + String(last))
                }
            }
            forms.formUnion(derivedForms.filter { !notDerived.contains($0) })
        }
        return forms
    }

    /// A compound's parts are at least this long, so that "of", "au" or "s" from a lexicon entry split nothing.
    static let shortestPart = 3
    /// In a compound with a word the lexicon does not know, its known parts are at least this long, so that "rum"
    /// splits no "Rumpsteak"; the word it does not know, at least ``shortestPart`` first and two letters last ("öl").
    private static let shortestPartBesideUnknown = 4
    private static let shortestUnknownHead = 2

    /// What `word` may be the singular, a plural or a case of: itself, and what its language's endings make of it.
    func singulars(of word: String) -> [String] {
        [word] + morphology.inflections.flatMap { $0.stems(of: word) }
    }

    /// The words `word` may be a regular derived form of; none for a word the lexicon says is not derived.
    func stems(of word: String) -> [String] {
        guard !notDerived.contains(word) else { return [] }
        var stems: [String] = []
        for derivation in morphology.derivations {
            let derived = derivation.stems(of: word)
            stems += derived
            if morphology.undoublesConsonants, let stem = derived.first, derivation.shortStems != true, let last = stem.last,
                stem.dropLast().last == last, !"aeiou".contains(last)
            {
                stems.append(String(stem.dropLast()))
            }
        }
        return stems
    }

    /// The words `word` may stand for as a lexicon reads it: its ``singulars(of:)``, and the ``stems(of:)`` of three
    /// letters or more. Only those that are lexicon words can match an entry, so a word none of whose readings is one
    /// (most of a text's words) is read as itself alone, without working its forms out.
    func readings(of word: String) -> (singulars: Set<String>, stems: Set<String>) {
        guard readableForms.contains(word) else { return ([word], []) }
        return readingsMemo.value(of: word) {
            (Set(singulars(of: word)), Set(stems(of: word).filter { $0.count >= Self.shortestPart }))
        }
    }

    /// Whether the lexicon knows `word`, in the singular, a plural or a derived form of three letters or more.
    func knows(_ word: String) -> Bool {
        knownForms.contains(word)
    }

    /// Whether `part` of a compound is a known word that may stand in one: in the singular or a plural, or, as the
    /// compound's last part, in any form the lexicon reads ("shrimp" + "fried").
    private func isPart(_ part: String, last: Bool) -> Bool {
        last ? lastPartForms.contains(part) : partForms.contains(part)
    }

    /// The lexicon's words that `word` is a compound of, in order, fewest parts first ("peanut butter", not "pea
    /// nut butter"); nil when the lexicon knows the word or it is no such compound. Where the language opens its
    /// compounds, a compound of the lexicon's words alone is preferred, else one that begins or ends with a word it
    /// does not know, fewest such words first ("voll milch", "hart weizen griess").
    func parts(of word: String) -> [String]? {
        guard word.count >= 2 * Self.shortestPart, !knows(word), word.allSatisfy(\.isLetter) else { return nil }
        return partsMemo.value(of: word) {
            let letters = Array(word)
            if let parts = knownParts(of: letters) { return parts }
            return morphology.opensCompounds ? openParts(of: letters) : nil
        }
    }

    /// `letters` as a compound of the lexicon's words alone, fewest parts first.
    private func knownParts(of letters: [Character]) -> [String]? {
        guard letters.count >= 2 * Self.shortestPart else { return nil }
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

    /// `letters` as a compound of the lexicon's words that begins or ends with a word it does not know, or both:
    /// fewest unknown words first, then fewest unknown letters, then fewest parts. Nil when no known part of four
    /// letters or more is in it.
    private func openParts(of letters: [Character]) -> [String]? {
        typealias Split = (parts: [String], unknown: Int, unknownLetters: Int)
        func better(_ split: Split, than other: Split?) -> Bool {
            guard let other else { return true }
            return (split.unknown, split.unknownLetters, split.parts.count) < (other.unknown, other.unknownLetters, other.parts.count)
        }
        // chain[start]: letters[start...] as known parts, the last of which may be a word the lexicon does not know.
        var chain: [Split?] = Array(repeating: nil, count: letters.count + 1)
        chain[letters.count] = ([], 0, 0)
        for start in stride(from: letters.count - Self.shortestUnknownHead, through: 0, by: -1) {
            if start > 0 { chain[start] = ([String(letters[start...])], 1, letters.count - start) }
            for end in stride(from: letters.count, through: start + Self.shortestPartBesideUnknown, by: -1) {
                guard let rest = chain[end] else { continue }
                let part = String(letters[start..<end])
                guard isPart(part, last: end == letters.count) else { continue }
                let split: Split = ([part] + rest.parts, rest.unknown, rest.unknownLetters)
                if better(split, than: chain[start]) { chain[start] = split }
            }
        }
        var best: Split? = nil
        if let whole = chain[0], whole.parts.count > whole.unknown { best = whole }
        for start in Self.shortestPart..<(letters.count - Self.shortestPartBesideUnknown + 1) {
            guard let rest = chain[start], rest.parts.count > rest.unknown else { continue }
            let split: Split = ([String(letters[..<start])] + rest.parts, rest.unknown + 1, rest.unknownLetters + start)
            if better(split, than: best) { best = split }
        }
        guard let best, best.parts.count > 1 else { return nil }
        return best.parts
    }

    /// `word`, a compound's first part a hyphen hangs after, joined to the head of the next compound among `following`
    /// that makes a word this lexicon reads whole or as known parts: "hasel" and "walnusse" make "haselnusse". The
    /// word itself when it is no such part, or the language does not open its compounds.
    func joined(_ word: String, toHeadOf following: ArraySlice<String>) -> String {
        guard morphology.opensCompounds else { return word }
        // The next word is mostly "und" or "oder", and the compound the one after it.
        for next in following.prefix(2).reversed() where next.count > Self.shortestUnknownHead {
            for length in stride(from: next.count - 1, through: Self.shortestUnknownHead, by: -1) {
                let candidate = word + next.suffix(length)
                if knows(candidate) || knownParts(of: Array(candidate)) != nil { return candidate }
            }
        }
        return word
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
        let readings = self.text.words.map(forms.readings(of:))
        singulars = readings.map(\.singulars)
        stems = readings.map(\.stems)
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

/// What a word reads as, once worked out, by word: a language's cooking vocabulary is small and every scan reads its
/// words several times (streamed, labelled, guarded), so a word's compound search and forms are worked out once per
/// process rather than on every reading. Bounded: past ``capacity`` words nothing more is kept, and a word not kept is
/// worked out each time, as before.
final class WordMemo<Value: Sendable>: Sendable {
    /// Some 10 MB at most for a language: its recipes' words are a few thousand.
    let capacity = 50_000
    private let values = Mutex<[String: Value]>([:])

    /// `word`'s value, worked out by `compute` the first time.
    func value(of word: String, orCompute compute: () -> Value) -> Value {
        if let known = values.withLock({ $0[word] }) { return known }
        let value = compute()
        values.withLock { if $0.count < capacity { $0[word] = value } }
        return value
    }
}
