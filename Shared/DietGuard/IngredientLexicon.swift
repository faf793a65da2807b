import Foundation
import KiwiModels

/// Which ingredient names belong to which allergen or diet group: `ingredient-lexicon.json`, the one data file the
/// guard reads, with the sources of its entries. Every entry is lower case, singular words.
public struct IngredientLexicon: Sendable {
    /// An allergen group (the 14 of EU law, ids as ``KitchenProfile/Allergen``) or a group a diet excludes (meat,
    /// pork, honey, gelatin, alcohol).
    public struct Group: Sendable {
        public let id: String
        /// As a user reads it: "tree nuts".
        public let name: String
        /// Names of ingredients that are, or are made with, this group.
        let terms: PhraseIndex
        /// Names that contain a term but are not of this group ("coconut milk" for milk): their words never count.
        let notContaining: PhraseIndex
        /// Words that make the name they stand in free of the group ("gluten free", "dairy free", "vegan"), and the
        /// lexicon's ``File/replacementMarkers`` ("instead of butter").
        let freeMarkers: PhraseIndex
        /// The entries of ``terms`` that no marker frees: a food of the group whatever stands before it ("gluten-free
        /// oats" are oats, a cereal of Annex II).
        let notFreed: Set<Int>
        /// Words that, right after a term, make it a comparison, not the food ("walnut-sized", "egg-shaped",
        /// "celery-like"): the lexicon's ``File/comparisonWords``.
        let comparisonWords: Set<String>
        /// Words that end the name a free marker stands before: the lexicon's ``File/separators``.
        let separators: Set<String>
    }

    /// The groups by id.
    public let groups: [String: Group]
    /// How the whole lexicon reads compounds and derived forms.
    let forms: WordForms
    /// The groups with a term that starts with each word: a text can name only the groups its words lead to.
    let groupsByTermStart: [String: [String]]
    /// The groups each diet excludes.
    let diets: [KitchenProfile.Diet: [String]]

    /// The language its entries are words of: "en", "de".
    public let language: String

    /// The English lexicon built into Kiwi.
    public static let standard: IngredientLexicon = {
        do {
            return try IngredientLexicon(json: Data(PackageResources.ingredient_lexicon_json))
        } catch {
            fatalError("ingredient-lexicon.json is broken: \(error)")
        }
    }()

    /// The lexicon built into Kiwi for the words of `language`: `ingredient-lexicon-<language>.json`, English's
    /// ``standard``.
    public static func builtIn(_ language: AnswerLanguage) -> IngredientLexicon {
        let json: [UInt8]
        switch language {
        case .en: return standard
        case .de: json = PackageResources.ingredient_lexicon_de_json
        case .fr: json = PackageResources.ingredient_lexicon_fr_json
        case .es: json = PackageResources.ingredient_lexicon_es_json
        case .it: json = PackageResources.ingredient_lexicon_it_json
        case .nl: json = PackageResources.ingredient_lexicon_nl_json
        }
        do {
            let lexicon = try IngredientLexicon(json: Data(json), english: standard)
            guard lexicon.language == language.rawValue else { throw LexiconError("it says it is \(lexicon.language)") }
            return lexicon
        } catch {
            fatalError("ingredient-lexicon-\(language.rawValue).json is broken: \(error)")
        }
    }

    /// Reads a lexicon, checking that it names a group for every allergen and for every group a diet excludes. A
    /// lexicon of another language than English takes its groups' names and its diets from `english`: names are shown
    /// in English, and a diet excludes the same groups in every language.
    public init(json: Data, english: IngredientLexicon? = nil) throws {
        let file = try JSONDecoder().decode(File.self, from: json)
        let replacements = file.replacementMarkers ?? []
        let entries =
            file.groups.flatMap { $0.terms + $0.notContaining + $0.freeMarkers } + replacements + (file.wholeWords ?? [])
            + (file.compoundParts ?? []) + (file.comparisonWords ?? [])
        let morphology =
            file.inflections.map {
                Morphology(
                    inflections: $0,
                    derivations: file.derivations ?? [],
                    undoublesConsonants: false,
                    opensCompounds: file.opensCompounds ?? false
                )
            } ?? .english
        let forms = WordForms(
            entries: entries,
            notDerived: Set(file.notDerived ?? []),
            notParts: Set(file.notCompoundParts ?? []),
            morphology: morphology
        )
        let separators = Set((file.separators ?? Self.englishSeparators).map { IngredientWords($0).words.joined(separator: " ") })
        var groups: [String: Group] = [:]
        var groupsByTermStart: [String: [String]] = [:]
        for group in file.groups {
            guard groups[group.id] == nil else { throw LexiconError("group \(group.id) is listed twice") }
            let terms = PhraseIndex(group.terms)
            let notFreed = Set((group.notFreed ?? []).map { IngredientWords($0).words })
            guard notFreed.allSatisfy({ words in terms.phrases.contains { $0.words == words } }) else {
                throw LexiconError("group \(group.id) lists a term as not freed that is not one of its terms")
            }
            guard let name = group.name ?? english?.groups[group.id]?.name else { throw LexiconError("group \(group.id) has no name") }
            groups[group.id] = Group(
                id: group.id,
                name: name,
                terms: terms,
                notContaining: PhraseIndex(group.notContaining),
                freeMarkers: PhraseIndex(group.freeMarkers + replacements),
                notFreed: Set(terms.phrases.indices.filter { notFreed.contains(terms.phrases[$0].words) }),
                comparisonWords: Set(file.comparisonWords ?? []),
                separators: separators
            )
            for start in Set(terms.phrases.compactMap(\.words.first)) { groupsByTermStart[start, default: []].append(group.id) }
        }
        var diets: [KitchenProfile.Diet: [String]] = english?.diets ?? [:]
        for (name, excluded) in file.diets ?? [:] {
            guard let diet = KitchenProfile.Diet(rawValue: name) else { throw LexiconError("unknown diet \(name)") }
            diets[diet] = excluded
        }
        let missing =
            KitchenProfile.Allergen.allCases.map(\.rawValue).filter { groups[$0] == nil }
            + diets.values.joined().filter { groups[$0] == nil }
            + KitchenProfile.Diet.allCases.filter { diets[$0] == nil }.map { "diet \($0.rawValue)" }
        guard missing.isEmpty else { throw LexiconError("nothing defines \(missing.joined(separator: ", "))") }
        self.language = file.language ?? "en"
        self.groups = groups
        self.groupsByTermStart = groupsByTermStart
        self.diets = diets
        self.forms = forms
    }

    /// `text` read as every group reads it, compounds split and each word's forms worked out once for all of them.
    func reading(_ text: String) -> LexiconReading {
        LexiconReading(IngredientWords(text), forms: forms, groupsByTermStart: groupsByTermStart)
    }

    /// The words that end a name in English (``File/separators``).
    private static let englishSeparators = ["and", "or", "with", "plus", "for"]

    private struct File: Decodable {
        struct Group: Decodable {
            var id: String
            /// As a user reads it; another language's lexicon takes it from the English one.
            var name: String?
            var terms: [String]
            var notContaining: [String]
            var freeMarkers: [String]
            /// Terms no marker frees (``Group/notFreed``).
            var notFreed: [String]?
        }
        /// A BCP 47 language; English when absent.
        var language: String?
        /// Its plural and case endings (``Morphology/inflections``); absent, English's morphology.
        var inflections: [WordEnding]?
        /// Its derived forms' endings (``Morphology/derivations``).
        var derivations: [WordEnding]?
        /// Whether its compounds may hold words the lexicon does not know (``Morphology/opensCompounds``).
        var opensCompounds: Bool?
        /// Words that end the name a free marker stands before ("and", "or", "with", "plus", "for" in English): "swap
        /// the butter for ghee" frees the butter, not the ghee.
        var separators: [String]?
        var groups: [Group]
        /// The groups each diet excludes; another language's lexicon takes them from the English one.
        var diets: [String: [String]]?
        /// Words never split as compounds, so that they stay the false friends they are ("nutmeg", "buttercup").
        var wholeWords: [String]?
        /// Words besides the lexicon's own that a one-word compound may be made of ("fried" in "shrimpfried").
        var compoundParts: [String]?
        /// Words that look like derived forms of a term but are not ("minced", "scalloped").
        var notDerived: [String]?
        /// Words that say the next term is not used, for every group: "instead of", "rather than", "swap the". They
        /// free it as a group's free marker does ("use olive oil instead of butter", "swap the butter for olive oil" name
        /// no milk).
        var replacementMarkers: [String]?
        /// Words that make the term before them a comparison (``Group/comparisonWords``).
        var comparisonWords: [String]?
        /// Lexicon words that never stand as part of a compound ("ling").
        var notCompoundParts: [String]?
    }
}

/// A lexicon file that cannot be used.
public struct LexiconError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension IngredientLexicon.Group {
    /// The first term of this group `text` names, not counting words of a name that is not of the group, nor a term
    /// a free marker stands right before (up to three words before it, with no punctuation between and none of the
    /// words "and", "or", "with" or "plus": "gluten-free whole wheat pasta") or right after when the marker ends the
    /// name ("pasta, gluten-free", "pasta (gluten-free) and rice"). A marker followed by words of the next name belongs
    /// to that name: "butter, dairy-free yoghurt" still names butter. One-word compounds are read as their words and
    /// derived forms as the word they come from (``WordForms``). Nil when the text is free of the group.
    func term(in reading: LexiconReading) -> String? {
        guard reading.nameableGroups.contains(id) else { return nil }
        let text = reading.text
        let occurrences = terms.occurrences(in: reading, derived: true)
        // A text may have a term's first word and still name none of the group's terms: then no marker or exception
        // can matter, and none is looked for.
        guard !occurrences.isEmpty else { return nil }
        let markers = freeMarkers.occurrences(in: reading, derived: false).map { $0.words }
        // A term inside a name that is not of the group does not count, a longer term that holds such a name does
        // ("peanut butter cup" is milk, though "peanut butter" is not); a term that shares a word with a marker never
        // does ("pine-nut-free").
        let exceptions = notContaining.occurrences(in: reading, derived: true).map { $0.words }
        let markerWords = Set(markers.flatMap { $0 })
        let named = occurrences.filter { found in
            !exceptions.contains { $0.lowerBound <= found.words.lowerBound && found.words.upperBound <= $0.upperBound }
                && !found.words.contains(where: markerWords.contains) && !isComparison(found.words, in: text)
                && (notFreed.contains(found.entry)
                    || !markers.contains { marker in
                        if marker.upperBound <= found.words.lowerBound {
                            let between = text.words[marker.upperBound..<found.words.lowerBound]
                            return between.count <= 3 && !between.contains(where: separators.contains)
                                && !(marker.upperBound...found.words.lowerBound).contains(where: text.breaks.contains)
                        }
                        return marker.lowerBound == found.words.upperBound && endsName(at: marker.upperBound, in: text)
                    })
        }
        return named.map { $0.entry }.min().map { terms.phrases[$0].words.joined(separator: " ") }
    }

    /// Whether the term at `words` is followed, with no punctuation between, by a comparison word: "walnut-sized".
    private func isComparison(_ words: Range<Int>, in text: IngredientWords) -> Bool {
        words.upperBound < text.words.count && !text.breaks.contains(words.upperBound) && comparisonWords.contains(text.words[words.upperBound])
    }

    /// Whether a name ends before the word at `position`: the text ends, punctuation or a separating word follows.
    private func endsName(at position: Int, in text: IngredientWords) -> Bool {
        position == text.words.count || text.breaks.contains(position) || separators.contains(text.words[position])
    }
}
