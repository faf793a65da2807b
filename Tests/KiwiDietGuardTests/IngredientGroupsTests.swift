import KiwiDietGuard
import KiwiModels
import Testing

/// The lexicon and its matching, over a table of ingredient names as a model writes them.
@Suite("Ingredient groups")
struct IngredientGroupsTests {
    let dietGuard = DietGuard()

    /// Ingredient names and every allergen or diet group each must be found in (other groups may be found too).
    static let named: [(String, [String])] = [
        // The hard ones: products whose allergen is not in their name.
        ("basil pesto", ["tree_nuts", "milk"]),
        ("Worcestershire sauce", ["fish"]),
        ("soy sauce", ["soybeans", "gluten"]),
        ("ghee", ["milk"]),
        ("tahini", ["sesame"]),
        ("surimi", ["fish"]),
        ("marzipan", ["tree_nuts"]),
        ("garlic aioli", ["eggs"]),
        ("mayonnaise", ["eggs"]),
        ("fish sauce", ["fish"]),
        ("Caesar dressing", ["eggs", "fish", "milk"]),
        ("hummus", ["sesame"]),
        ("miso paste", ["soybeans"]),
        ("tofu", ["soybeans"]),
        ("tempeh", ["soybeans"]),
        ("edamame", ["soybeans"]),
        ("oyster sauce", ["molluscs"]),
        ("shrimp paste", ["crustaceans"]),
        ("anchovy fillets", ["fish"]),
        ("whey protein", ["milk"]),
        ("sodium caseinate", ["milk"]),
        ("crème fraîche", ["milk"]),
        ("Parmesan", ["milk"]),
        ("feta cheese", ["milk"]),
        ("Greek yogurt", ["milk"]),
        ("unsalted butter", ["milk"]),
        ("heavy cream", ["milk"]),
        ("buttermilk", ["milk"]),
        ("eggs", ["eggs"]),
        ("egg noodles", ["eggs", "gluten"]),
        ("meringue", ["eggs"]),
        ("wheat flour", ["gluten"]),
        ("breadcrumbs", ["gluten"]),
        ("panko", ["gluten"]),
        ("spaghetti", ["gluten"]),
        ("couscous", ["gluten"]),
        ("seitan", ["gluten"]),
        ("pearl barley", ["gluten"]),
        ("rye bread", ["gluten"]),
        ("flour tortillas", ["gluten"]),
        ("peanut butter", ["peanuts"]),
        ("satay sauce", ["peanuts"]),
        ("toasted almonds", ["tree_nuts"]),
        ("cashews", ["tree_nuts"]),
        ("walnuts", ["tree_nuts"]),
        ("pine nuts", ["tree_nuts"]),
        ("Nutella", ["tree_nuts", "milk"]),
        ("celery sticks", ["celery"]),
        ("celeriac", ["celery"]),
        ("Dijon mustard", ["mustard"]),
        ("sesame oil", ["sesame"]),
        ("white wine", ["sulphites", "alcohol"]),
        ("dried apricots", ["sulphites"]),
        ("lupin flour", ["lupin"]),
        ("prawns", ["crustaceans"]),
        ("crab meat", ["crustaceans"]),
        ("mussels", ["molluscs"]),
        ("squid rings", ["molluscs"]),
        ("smoked salmon", ["fish"]),
        ("canned tuna", ["fish"]),
        ("bacon", ["pork", "meat"]),
        ("chicken breast", ["meat"]),
        ("ground beef", ["meat"]),
        ("honey", ["honey"]),
        ("gelatin", ["gelatin"]),
        ("mirin", ["alcohol"]),
    ]

    /// Names that must be free of the groups next to them: false friends and explicit "free" forms.
    static let free: [(String, [String])] = [
        ("coconut milk", ["tree_nuts", "milk"]),
        ("shredded coconut", ["tree_nuts"]),
        ("buckwheat", ["gluten"]),
        ("buckwheat flour", ["gluten"]),
        ("peanut-free granola", ["peanuts"]),
        ("cream of tartar", ["milk"]),
        ("eggplant", ["eggs"]),
        ("eggplants", ["eggs"]),
        ("gluten-free pasta", ["gluten"]),
        ("pasta (gluten-free)", ["gluten"]),
        ("spaghetti, gluten-free", ["gluten"]),
        ("pasta (gluten-free) and rice", ["gluten"]),
        ("dairy-free yogurt", ["milk"]),
        ("nutmeg", ["tree_nuts"]),
        ("water chestnuts", ["tree_nuts"]),
        ("butternut squash", ["tree_nuts", "milk"]),
        ("rice noodles", ["gluten"]),
        ("corn tortillas", ["gluten"]),
        ("almond milk", ["milk"]),
        ("oat milk", ["milk"]),
        ("peanut butter", ["milk"]),
        ("butter beans", ["milk"]),
        ("honeydew melon", ["honey"]),
        ("hamburger buns", ["pork"]),
        ("kidney beans", ["meat"]),
        ("apple cider vinegar", ["alcohol"]),
        ("egg-free mayonnaise", ["eggs"]),
        ("vegan Worcestershire sauce", ["fish"]),
    ]

    @Test("every ingredient in the table is found in each of its groups", arguments: named)
    func findsGroups(name: String, groups: [String]) {
        let found = Set(dietGuard.groups(in: name))
        #expect(Set(groups).isSubset(of: found), "\(name): found \(found.sorted())")
    }

    @Test("false friends and explicit free forms are not found in the groups they only resemble", arguments: free)
    func passesFalseFriends(name: String, groups: [String]) {
        let found = Set(dietGuard.groups(in: name))
        #expect(found.isDisjoint(with: groups), "\(name): found \(found.sorted())")
    }

    @Test("lactose-free milk is still milk: only a dairy-free form frees it")
    func lactoseFreeMilkIsMilk() {
        #expect(dietGuard.groups(in: "lactose-free milk").contains("milk"))
    }

    @Test("a free marker up to three words before the name frees it")
    func freeMarkerBeforeName() {
        #expect(!dietGuard.groups(in: "gluten-free whole wheat pasta").contains("gluten"))
    }

    /// Texts that name a group beside a free marker that does not free it: an alternative, a list, another word.
    static let notFreed: [(String, String)] = [
        ("butter or vegan butter", "milk"),
        ("milk (or dairy-free milk)", "milk"),
        ("gluten-free pasta, bread", "gluten"),
        ("halal beef, bacon", "pork"),
        ("Season the bacon with kosher salt", "pork"),
        ("Sprinkle kosher salt over the bacon", "pork"),
        ("gluten-free bread and soy sauce", "gluten"),
        ("butter, dairy-free yoghurt", "milk"),
        ("Toss the pasta, gluten-free breadcrumbs and parsley", "gluten"),
    ]

    @Test("a free marker frees only the name it stands in: not across punctuation, \"or\", \"and\", or another word", arguments: notFreed)
    func freeMarkerStaysInItsName(text: String, group: String) {
        #expect(dietGuard.groups(in: text).contains(group), "\(text)")
    }

    /// One-word compounds and the group they must be found in.
    static let compounds: [(String, String)] = [
        ("Toss with peanutbutter and lime", "peanuts"),
        ("shrimpfried rice", "crustaceans"),
        ("Brush with eggwash", "eggs"),
        ("a spoon of sourcream", "milk"),
        ("soysauce", "soybeans"),
        ("almondflour", "tree_nuts"),
    ]

    @Test("a one-word compound is read as the lexicon's words it is made of", arguments: compounds)
    func splitsCompounds(text: String, group: String) {
        #expect(dietGuard.groups(in: text).contains(group), "\(text)")
    }

    /// Derived forms of a term and the group they must be found in.
    static let derived: [(String, String)] = [
        ("Stir in the creamed spinach", "milk"),
        ("a buttery sauce", "milk"),
        ("buttered leeks", "milk"),
        ("something cheesy", "milk"),
        ("eggy bread", "eggs"),
        ("on a floured surface", "gluten"),
        ("a walnutty crumble", "tree_nuts"),
        ("until creamier", "milk"),
        ("soured cream", "milk"),
        ("crumbed chicken", "gluten"),
    ]

    @Test("a regular derived form of a term names the term's group", arguments: derived)
    func matchesDerivedForms(text: String, group: String) {
        #expect(dietGuard.groups(in: text).contains(group), "\(text)")
    }

    /// Words that only look like a compound or a derived form of a term, and the group they must stay free of.
    static let lookalikes: [(String, String)] = [
        ("coconutmilk", "milk"),
        ("butternutsquash", "tree_nuts"),
        ("peanutbutter", "milk"),
        ("dairyfree yoghurt", "milk"),
        ("buttercup squash", "milk"),
        ("butterhead lettuce", "milk"),
        ("breadfruit", "gluten"),
        ("Butterfly the chicken", "milk"),
        ("Mince the garlic, then add the minced ginger", "meat"),
        ("scalloped edges", "molluscs"),
        ("floury potatoes", "gluten"),
        ("seedlings", "fish"),
        ("tamales", "alcohol"),
        ("hammered copper pan", "pork"),
        ("beefsteak tomatoes", "meat"),
        ("Scatter on toasted sesame seeds", "gluten"),
    ]

    @Test("words that only look like a compound or a derived form of a term stay free of its group", arguments: lookalikes)
    func keepsLookalikesFree(text: String, group: String) {
        #expect(!dietGuard.groups(in: text).contains(group), "\(text)")
    }

    @Test("plurals and case do not matter: COOKIES, anchovies and tomatoes match their singular entries")
    func matchesPluralsAndCase() {
        #expect(dietGuard.groups(in: "COOKIES").contains("gluten"))
        #expect(dietGuard.groups(in: "Anchovies").contains("fish"))
        #expect(dietGuard.groups(in: "Peaches").isEmpty)
    }

    @Test("the table covers at least 60 ingredient names")
    func tableIsThorough() {
        #expect(Self.named.count + Self.free.count >= 60)
    }

    @Test("every allergen of the profile and every group a diet excludes has a group in the lexicon")
    func lexiconIsComplete() {
        let lexicon = IngredientLexicon.standard
        for allergen in KitchenProfile.Allergen.allCases { #expect(lexicon.groups[allergen.rawValue] != nil) }
        for diet in KitchenProfile.Diet.allCases where diet != .lowCarb {
            #expect(!dietGuard.rules(for: KitchenProfile(diets: [diet])).isEmpty, "\(diet)")
        }
    }
}
