import Foundation
import KiwiDietGuard
import Testing

/// How a lexicon of another language reads its words (docs/architecture.md, "The allergen and diet guard"): its own
/// plural endings, compounds that begin or end with words it does not know, a hyphen that hangs for the next word's
/// head, and letters Foundation's folding leaves whole. On a small lexicon written here, so that each mechanism is seen
/// apart from the built-in lexicons' words.
@Suite("Language morphology")
struct LanguageMorphologyTests {
    /// German-like: plurals in "e", "en", "n", "er" (short stems allowed, for "Eier"), compounds open.
    static let lexicon: IngredientLexicon = {
        let ids =
            ["gluten", "crustaceans", "eggs", "fish", "peanuts", "soybeans", "milk", "tree_nuts", "celery", "mustard", "sesame"]
            + ["sulphites", "lupin", "molluscs", "meat", "pork", "honey", "gelatin", "alcohol"]
        let terms: [String: [String]] = [
            "gluten": ["weizen", "mehl"], "milk": ["milch", "butter"], "tree_nuts": ["walnuss", "haselnuss", "nuss"],
            "peanuts": ["erdnuss"], "eggs": ["ei"], "sesame": ["sesam"], "alcohol": ["rum"],
        ]
        let notContaining: [String: [String]] = ["milk": ["erdnuss butter", "kokos milch"], "gluten": ["mais mehl"]]
        let groups = ids.map { id in
            ["id": id, "terms": terms[id] ?? [], "notContaining": notContaining[id] ?? [], "freeMarkers": id == "milk" ? ["milch frei"] : []]
                as [String: Any]
        }
        let file: [String: Any] = [
            "language": "de",
            "inflections": [
                ["ending": "e", "stems": [""]], ["ending": "en", "stems": [""]], ["ending": "n", "stems": [""]],
                ["ending": "er", "stems": [""], "shortStems": true],
            ],
            "opensCompounds": true,
            "separators": ["und", "oder", "mit"],
            "wholeWords": ["butternusskürbis"],
            "compoundParts": ["kokos", "mais"],
            "groups": groups,
        ]
        return try! IngredientLexicon(json: JSONSerialization.data(withJSONObject: file), english: .standard)
    }()
    let dietGuard = DietGuard(lexicon: lexicon)

    @Test("a compound of the lexicon's words is read as its words: Erdnussbutter is peanut, not milk")
    func compoundOfKnownWords() {
        #expect(dietGuard.groups(in: "Erdnussbutter auf das Brot streichen") == ["peanuts"])
    }

    @Test("a compound may begin or end with a word the lexicon does not know", arguments: ["Vollmilch", "Hartweizengrieß", "Sesamöl"])
    func openCompound(_ word: String) {
        #expect(!dietGuard.groups(in: word).isEmpty)
    }

    @Test("a known part beside an unknown word is four letters or more: Rumpsteak is no rum")
    func shortPartBesideUnknown() {
        #expect(dietGuard.groups(in: "Rumpsteak").isEmpty)
    }

    @Test("a word the lexicon knows is never split, so its false friends stay whole")
    func wholeWordsStayWhole() {
        #expect(dietGuard.groups(in: "Butternusskürbis schälen").isEmpty)
        #expect(dietGuard.groups(in: "Kokosmilch und Maismehl").isEmpty)
    }

    @Test("the language's plural endings are read, short stems where the lexicon allows them: Eier, Nüssen")
    func pluralEndings() {
        #expect(dietGuard.groups(in: "drei Eier") == ["eggs"])
        #expect(dietGuard.groups(in: "mit Nüssen") == ["tree_nuts"])
    }

    @Test("a hyphen that hangs after a word takes the next compound's head: Hasel- oder Erdnüsse")
    func hangingHyphen() {
        #expect(dietGuard.groups(in: "Hasel- oder Erdnüsse") == ["peanuts", "tree_nuts"])
    }

    @Test("ß and the ligatures are written out: Weißmehl is weissmehl")
    func ligatures() {
        #expect(dietGuard.groups(in: "Weißmehl") == ["gluten"])
    }

    @Test("a free marker in a split compound frees the term: milchfreie Margarine")
    func markerInCompound() {
        #expect(dietGuard.groups(in: "milchfreie Margarine").isEmpty)
    }

    @Test("the language's own separators end a name a marker stands before")
    func languageSeparators() {
        #expect(dietGuard.groups(in: "milchfreie Margarine mit Butter") == ["milk"])
    }
}
