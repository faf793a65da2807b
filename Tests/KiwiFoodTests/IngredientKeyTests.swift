import KiwiDietGuard
import Testing

@Suite("Ingredient keys")
struct IngredientKeyTests {
    @Test(
        "names of one ingredient share a key",
        arguments: [
            ("Tomatoes", "tomato"), ("tomato", "tomato"), ("2 fresh tomatoes", "tomato"), ("Eggs", "egg"), ("Berries", "berry"),
            ("Peaches", "peach"), ("Crème Fraîche", "creme fraiche"), ("Bay leaves", "bay leaf"), ("Cookies", "cookie"),
            ("Baby spinach", "spinach"), ("Green beans", "green bean"), ("Potatoes", "potato"), ("Boxes", "box"),
        ]
    )
    func namesShareAKey(name: String, key: String) {
        #expect(IngredientKey.of(name) == key)
    }

    @Test("words that name something else are kept whole", arguments: ["hummus", "couscous", "swiss", "peas", "coconut milk"])
    func wordsKeptWhole(name: String) {
        #expect(IngredientKey.of(name) == (name == "peas" ? "pea" : name))
    }

    @Test("a name of preparation words alone keeps its last word")
    func preparationWordsAlone() {
        #expect(IngredientKey.of("Fresh") == "fresh")
        #expect(IngredientKey.of("sliced fresh") == "fresh")
    }

    @Test("a name without a letter or digit has an empty key")
    func emptyKey() {
        #expect(IngredientKey.of(" -- ").isEmpty)
    }

    @Test("a name's words keep the amounts and preparation words its key drops, folded and singular")
    func wordsKeepWhatTheKeyDrops() {
        #expect(IngredientKey.words(of: "2 Cooked Crème-Fraîche Tomatoes") == ["2", "cooked", "creme", "fraiche", "tomato"])
    }
}
