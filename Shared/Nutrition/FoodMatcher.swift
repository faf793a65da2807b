import KiwiDietGuard

/// A recipe ingredient's food in the nutrition table, and how sure the match is.
public struct FoodMatch: Sendable, Hashable {
    public let food: Food
    /// 1 for a curated synonym; below 1, the word-overlap score.
    public let confidence: Double
    /// The ingredient's food words (``IngredientName/key``), prefixed by `dried` for a dried food: what its piece
    /// weights and densities are looked up by.
    public let key: String
    /// For a cooked ingredient weighed as the raw food it was cooked from, where the table has no cooked row: its
    /// weight is divided by the yield.
    public let cookingYield: CookingYield?
    /// The name asks for a state no row of the food is in (frozen blackberries, where the table has raw ones): the
    /// food is the nearest, and its values an estimate.
    public let isApproximate: Bool

    /// Whether the values are the table's for the ingredient as named, or an estimate from another state of it.
    public var isEstimate: Bool { cookingYield != nil || isApproximate }
    /// Whether the ingredient is cooked, as its name says.
    public let isCooked: Bool
}

/// Finds an ingredient's food in the nutrition table (docs/architecture.md, "Quantities, scaling and nutrition"):
/// 1. the ingredient's name is normalised by ``IngredientKey`` (lower case, no diacritics, leading amounts and
///    preparation words dropped, each word singular: "2 Fresh Tomatoes" → `tomato`);
/// 2. a curated synonym of that key names the food exactly (``synonyms``, confidence 1);
/// 3. else every food sharing a word with the key is scored by word overlap, its description normalised the same
///    way: how many of the ingredient's words it has (most weight), how few words of its own it adds, whether its
///    head (its first word, what the food is; the second after a class word: "Nuts, almonds", "Spices, nutmeg") is one
///    of the ingredient's, whether it is raw (uncooked, unprepared, dry), whether it is a generic Foundation or SR Legacy
///    food rather than an FNDDS dish, and how many of the eight nutrients it reports. Ties go to the dataset (Foundation, SR Legacy, FNDDS),
///    then the shorter and the alphabetically first description, so the same name always gets the same food;
/// 4. a best score below ``threshold``, or a food whose head is none of the name's words ("half-and-half" is not
///    "Nuts, pecans, halves"), is no match;
/// 5. the states the name says (``FoodState``: cooked, raw, dried, canned, frozen, smoked, salted, unsalted) pick the
///    row of the food in that state ("cooked rice" is "Rice, white, …, cooked"); where the table has none, a cooked
///    ingredient is weighed as its raw food through a cooking yield (``CookingYield``), else the food as found is an
///    estimate.
public struct FoodMatcher: Sendable {
    /// The least word-overlap score accepted as a match.
    public static let threshold = 0.72

    /// Common ingredients' keys and the food each one is: the most usual form a recipe means (raw, whole, plain),
    /// chosen by hand where word overlap would pick a less likely food ("egg" → a whole egg, not its white; "pepper" →
    /// black pepper; "flour" → all-purpose), and among equal foods the one FoodData Central reports every nutrient of
    /// (mostly SR Legacy: many Foundation foods lack saturated fat or sugars, which would make the values partial).
    public static let synonyms: [String: FoodReference] = [
        "egg": .init("foundation", "Eggs, Grade A, Large, egg whole"),
        "onion": .init("sr_legacy", "Onions, raw"),
        "red onion": .init("sr_legacy", "Onions, raw"),
        "yellow onion": .init("sr_legacy", "Onions, raw"),
        "white onion": .init("sr_legacy", "Onions, raw"),
        "garlic": .init("sr_legacy", "Garlic, raw"),
        "garlic clove": .init("sr_legacy", "Garlic, raw"),
        "tomato": .init("sr_legacy", "Tomatoes, red, ripe, raw, year round average"),
        "canned tomato": .init("foundation", "Tomatoes, canned, red, ripe, diced"),
        "tomato paste": .init("foundation", "Tomato, paste, canned, without salt added"),
        "tomato sauce": .init("sr_legacy", "Tomato products, canned, sauce"),
        "potato": .init("sr_legacy", "Potatoes, flesh and skin, raw"),
        "carrot": .init("sr_legacy", "Carrots, raw"),
        "celery": .init("sr_legacy", "Celery, raw"),
        "broccoli": .init("sr_legacy", "Broccoli, raw"),
        "spinach": .init("sr_legacy", "Spinach, raw"),
        "kale": .init("sr_legacy", "Kale, raw"),
        "cucumber": .init("sr_legacy", "Cucumber, with peel, raw"),
        "zucchini": .init("sr_legacy", "Squash, summer, zucchini, includes skin, raw"),
        "courgette": .init("sr_legacy", "Squash, summer, zucchini, includes skin, raw"),
        "eggplant": .init("sr_legacy", "Eggplant, raw"),
        "aubergine": .init("sr_legacy", "Eggplant, raw"),
        "mushroom": .init("sr_legacy", "Mushrooms, white, raw"),
        "bell pepper": .init("sr_legacy", "Peppers, sweet, red, raw"),
        "red bell pepper": .init("sr_legacy", "Peppers, sweet, red, raw"),
        "green bell pepper": .init("sr_legacy", "Peppers, sweet, green, raw"),
        "cabbage": .init("sr_legacy", "Cabbage, raw"),
        "lettuce": .init("sr_legacy", "Lettuce, green leaf, raw"),
        "green onion": .init("sr_legacy", "Onions, young green, tops only"),
        "scallion": .init("sr_legacy", "Onions, young green, tops only"),
        "pea": .init("sr_legacy", "Peas, green, raw"),
        "corn": .init("sr_legacy", "Corn, sweet, yellow, raw"),
        "avocado": .init("sr_legacy", "Avocados, raw, all commercial varieties"),
        "lemon": .init("sr_legacy", "Lemons, raw, without peel"),
        "lemon juice": .init("sr_legacy", "Lemon juice, raw"),
        "lime": .init("sr_legacy", "Limes, raw"),
        "lime juice": .init("sr_legacy", "Lime juice, raw"),
        "banana": .init("sr_legacy", "Bananas, raw"),
        "ginger": .init("sr_legacy", "Ginger root, raw"),
        "parsley": .init("sr_legacy", "Parsley, fresh"),
        "basil": .init("sr_legacy", "Basil, fresh"),
        "cilantro": .init("sr_legacy", "Coriander (cilantro) leaves, raw"),
        "butter": .init("sr_legacy", "Butter, salted"),
        "olive oil": .init("sr_legacy", "Oil, olive, salad or cooking"),
        "extra virgin olive oil": .init("sr_legacy", "Oil, olive, salad or cooking"),
        "vegetable oil": .init("sr_legacy", "Oil, vegetable, soybean, refined"),
        "canola oil": .init("sr_legacy", "Oil, canola"),
        "sesame oil": .init("sr_legacy", "Oil, sesame, salad or cooking"),
        "salt": .init("sr_legacy", "Salt, table"),
        "black pepper": .init("sr_legacy", "Spices, pepper, black"),
        "pepper": .init("sr_legacy", "Spices, pepper, black"),
        "sugar": .init("sr_legacy", "Sugars, granulated"),
        "honey": .init("sr_legacy", "Honey"),
        "flour": .init("sr_legacy", "Wheat flour, white, all-purpose, unenriched"),
        "all purpose flour": .init("sr_legacy", "Wheat flour, white, all-purpose, unenriched"),
        "milk": .init("survey_fndds", "Milk, whole"),
        "whole milk": .init("survey_fndds", "Milk, whole"),
        "heavy cream": .init("sr_legacy", "Cream, fluid, heavy whipping"),
        "sour cream": .init("sr_legacy", "Cream, sour, cultured"),
        "greek yogurt": .init("foundation", "Yogurt, Greek, plain, whole milk"),
        "yogurt": .init("sr_legacy", "Yogurt, plain, whole milk"),
        "cheddar": .init("foundation", "Cheese, cheddar"),
        "cheddar cheese": .init("foundation", "Cheese, cheddar"),
        "parmesan": .init("sr_legacy", "Cheese, parmesan, hard"),
        "parmesan cheese": .init("sr_legacy", "Cheese, parmesan, hard"),
        "mozzarella": .init("sr_legacy", "Cheese, mozzarella, whole milk"),
        "feta": .init("sr_legacy", "Cheese, feta"),
        "feta cheese": .init("sr_legacy", "Cheese, feta"),
        "cream cheese": .init("sr_legacy", "Cheese, cream"),
        "rice": .init("foundation", "Rice, white, long grain, unenriched, raw"),
        "white rice": .init("foundation", "Rice, white, long grain, unenriched, raw"),
        "brown rice": .init("foundation", "Rice, brown, long grain, unenriched, raw"),
        "pasta": .init("sr_legacy", "Pasta, dry, enriched"),
        "spaghetti": .init("sr_legacy", "Pasta, dry, enriched"),
        "penne": .init("sr_legacy", "Pasta, dry, enriched"),
        "chicken breast": .init("foundation", "Chicken, breast, boneless, skinless, raw"),
        "chicken thigh": .init("foundation", "Chicken, thigh, boneless, skinless, raw"),
        "ground beef": .init("sr_legacy", "Beef, ground, 80% lean meat / 20% fat, raw"),
        "bacon": .init("sr_legacy", "Pork, cured, bacon, unprepared"),
        "salmon": .init("sr_legacy", "Fish, salmon, Atlantic, farmed, raw"),
        "salmon fillet": .init("sr_legacy", "Fish, salmon, Atlantic, farmed, raw"),
        "shrimp": .init("sr_legacy", "Crustaceans, shrimp, raw"),
        "tofu": .init("sr_legacy", "Tofu, extra firm, prepared with nigari"),
        "chickpea": .init("survey_fndds", "Chickpeas, from canned, no added fat"),
        "black bean": .init("sr_legacy", "Beans, black turtle, mature seeds, canned"),
        "lentil": .init("sr_legacy", "Lentils, raw"),
        "chicken broth": .init("sr_legacy", "Soup, chicken broth, ready-to-serve"),
        "chicken stock": .init("sr_legacy", "Soup, stock, chicken, home-prepared"),
        "vegetable broth": .init("sr_legacy", "Soup, vegetable broth, ready to serve"),
        "soy sauce": .init("sr_legacy", "Soy sauce made from soy and wheat (shoyu)"),
        "water": .init("sr_legacy", "Beverages, water, tap, municipal"),
        "coconut milk": .init("survey_fndds", "Coconut milk, used in cooking"),
        "peanut butter": .init("sr_legacy", "Peanut butter, smooth style, without salt"),
        "bread": .init("foundation", "Bread, white, commercially prepared"),
        "oat": .init("foundation", "Oats, whole grain, rolled, old fashioned"),
        "rolled oat": .init("foundation", "Oats, whole grain, rolled, old fashioned"),
        "cumin": .init("sr_legacy", "Spices, cumin seed"),
        "paprika": .init("sr_legacy", "Spices, paprika"),
        "cinnamon": .init("sr_legacy", "Spices, cinnamon, ground"),
        "oregano": .init("sr_legacy", "Spices, oregano, dried"),
        "dried oregano": .init("sr_legacy", "Spices, oregano, dried"),
        "thyme": .init("sr_legacy", "Spices, thyme, dried"),
        "chili powder": .init("sr_legacy", "Spices, chili powder"),
        "red pepper flake": .init("sr_legacy", "Spices, pepper, red or cayenne"),
        "turmeric": .init("sr_legacy", "Spices, turmeric, ground"),
        "curry powder": .init("sr_legacy", "Spices, curry powder"),
        "garlic powder": .init("sr_legacy", "Spices, garlic powder"),
        "balsamic vinegar": .init("sr_legacy", "Vinegar, balsamic"),
        "vinegar": .init("sr_legacy", "Vinegar, distilled"),
        "mustard": .init("sr_legacy", "Mustard, prepared, yellow"),
        "ketchup": .init("sr_legacy", "Catsup"),
        "cherry tomato": .init("sr_legacy", "Tomatoes, red, ripe, raw, year round average"),
        "spring onion": .init("sr_legacy", "Onions, young green, tops only"),
        "sweet potato": .init("sr_legacy", "Sweet potato, canned, vacuum pack"),
        "almond": .init("sr_legacy", "Nuts, almonds"),
        "olive": .init("sr_legacy", "Olives, ripe, canned (small-extra large)"),
        "noodle": .init("sr_legacy", "Noodles, egg, dry, enriched"),
        "egg noodle": .init("sr_legacy", "Noodles, egg, dry, enriched"),
        "pita": .init("sr_legacy", "Bread, pita, white, enriched"),
        "yeast": .init("sr_legacy", "Leavening agents, yeast, baker's, active dry"),
        "nutmeg": .init("sr_legacy", "Spices, nutmeg, ground"),
        "chili": .init("sr_legacy", "Peppers, hot chili, red, raw"),
        "beetroot": .init("sr_legacy", "Beets, raw"),
        "beet": .init("sr_legacy", "Beets, raw"),
        "prawn": .init("sr_legacy", "Crustaceans, shrimp, raw"),
        "leek": .init("sr_legacy", "Leeks, (bulb and lower leaf-portion), raw"),
        "basil leaf": .init("sr_legacy", "Basil, fresh"),
        "mint": .init("sr_legacy", "Spearmint, fresh"),
        "mayonnaise": .init("sr_legacy", "Salad dressing, mayonnaise, regular"),
        "reduced fat milk": .init("survey_fndds", "Milk, reduced fat (2%)"),
        "low fat milk": .init("survey_fndds", "Milk, low fat (1%)"),
        "skim milk": .init("survey_fndds", "Milk, fat free (skim)"),
        "bakedbean": .init("sr_legacy", "Beans, baked, canned, plain or vegetarian"),
        "refriedbean": .init("sr_legacy", "Refried beans, canned, traditional style"),
        "friedrice": .init("survey_fndds", "Rice, fried, NFS"),
        "half and half": .init("sr_legacy", "Cream, fluid, half and half"),
        "light cream": .init("sr_legacy", "Cream, fluid, light whipping"),
        "powdered sugar": .init("sr_legacy", "Sugars, powdered"),
        "bread flour": .init("sr_legacy", "Wheat flour, white, bread, enriched"),
        "plain yogurt": .init("sr_legacy", "Yogurt, plain, whole milk"),
        "chocolate hazelnut spread": .init("sr_legacy", "Chocolate-flavored hazelnut spread"),
        "celery stalk": .init("sr_legacy", "Celery, raw"),
        "celery stick": .init("sr_legacy", "Celery, raw"),
        "beef stock": .init("sr_legacy", "Soup, stock, beef, home-prepared"),
        "vegetable stock": .init("sr_legacy", "Soup, vegetable broth, ready to serve"),
        "ice": .init("sr_legacy", "Beverages, water, tap, municipal"),
    ]

    private let foods: [Food]
    private let byKey: [FoodReference: Int]
    private let descriptions: [DescriptionWords]
    /// For each word, the foods whose descriptions have it: only they are scored.
    private let byWord: [String: [Int]]

    public init(_ table: FoodTable) {
        foods = table.foods
        let references = table.foods.map { FoodReference($0.dataset, $0.description) }
        byKey = Dictionary(zip(references, references.indices)) { first, _ in first }
        descriptions = table.foods.map(DescriptionWords.init)
        var byWord: [String: [Int]] = [:]
        for (index, description) in descriptions.enumerated() {
            for word in description.words { byWord[word, default: []].append(index) }
        }
        self.byWord = byWord
    }

    /// The food a synonym names; nil when the table lacks it (a test keeps every synonym in the table).
    public func food(_ reference: FoodReference) -> Food? {
        byKey[reference].map { foods[$0] }
    }

    /// The food `name` most likely is, in the state it names, or nil when none scores ``threshold``.
    public func match(_ name: String) -> FoodMatch? {
        let asked = IngredientName(name)
        guard let (index, confidence) = baseFood(asked.key) else { return nil }
        let key = (asked.states.contains(.dried) ? "dried " : "") + asked.key
        func found(_ index: Int, _ confidence: Double, yield: CookingYield? = nil, approximate: Bool = false) -> FoodMatch {
            FoodMatch(
                food: foods[index],
                confidence: confidence,
                key: key,
                cookingYield: yield,
                isApproximate: approximate,
                isCooked: asked.states.contains(.cooked)
            )
        }
        let states = asked.states.subtracting([.skinless])
        if states.isEmpty || descriptions[index].satisfies(states) { return found(index, confidence) }
        if let variant = variant(of: index, key: asked.key, states: states, methods: asked.methods, skinless: asked.states.contains(.skinless)) {
            return found(variant, min(confidence, 0.9))
        }
        if states.contains(.cooked), !descriptions[index].states.contains(.cooked),
            let yield = CookingYield.of(asked.key, methods: asked.methods, category: foods[index].category)
        {
            return found(index, confidence, yield: yield, approximate: states.count > 1)
        }
        return found(index, confidence, approximate: true)
    }

    /// The food `key` names, whatever its state: a curated synonym, else the best word overlap whose head the name
    /// has.
    private func baseFood(_ key: String) -> (index: Int, confidence: Double)? {
        func synonym(_ candidate: String) -> Int? { Self.synonyms[candidate].flatMap { byKey[$0] } }
        let withoutNumbers = key.split(separator: " ").filter { !$0.allSatisfy(\.isNumber) }.joined(separator: " ")
        if let index = synonym(key) ?? synonym(withoutNumbers) ?? synonym(IngredientKey.of(withoutNumbers)) { return (index, 1) }
        let words = Set(key.split(separator: " ").map(String.init)).subtracting(DescriptionWords.ignored)
        guard !words.isEmpty else { return nil }
        var best: (score: Double, index: Int)?
        for index in Set(words.flatMap { byWord[$0] ?? [] }) {
            let score = descriptions[index].score(against: words)
            if let current = best, !isBetter((score, index), than: current) { continue }
            best = (score, index)
        }
        // A food whose head is none of the name's words matches only when it has every one of them, two or more.
        guard let best, best.score >= Self.threshold,
            !words.isDisjoint(with: descriptions[best.index].head) || (words.count > 1 && words.isSubset(of: descriptions[best.index].words))
        else { return nil }
        return (best.index, (best.score * 100).rounded() / 100)
    }

    /// The row of the food at `base` (or of the food `key` names) in `states`: of the foods whose words hold every
    /// word of the name, or of the base, those in every state asked for, that report energy, and are not a processed
    /// product unless the base is one; the most alike the base first (its head; a generic food before an FNDDS dish,
    /// which may hold added fat; the cooking method named; its category; the skin left off when asked; the base's
    /// words), then the unsalted before the salted unless salt was asked for, the fewest words added, the preferred
    /// dataset, the most nutrients reported.
    private func variant(of base: Int, key: String, states: Set<FoodState>, methods: Set<String>, skinless: Bool) -> Int? {
        let baseWords = descriptions[base]
        let keyWords = Set(key.split(separator: " ").map(String.init)).subtracting(DescriptionWords.ignored)
        let candidates = Set((keyWords.union(baseWords.head)).flatMap { byWord[$0] ?? [] })
        let baseCategory = foods[base].category
        let processed = DescriptionWords.processedCategories.contains(baseCategory)
        var best: (rank: [Double], index: Int)?
        for index in candidates where index != base {
            let candidate = descriptions[index]
            guard candidate.satisfies(states), keyWords.isSubset(of: candidate.words) || baseWords.words.isSubset(of: candidate.words),
                foods[index][.energyKcal] != nil, processed || !DescriptionWords.processedCategories.contains(foods[index].category)
            else { continue }
            let rank: [Double] = [
                candidate.head == baseWords.head ? 1 : 0,
                candidate.datasetRank < 2 ? 1 : 0,
                methods.isDisjoint(with: candidate.methods) ? 0 : 1,
                foods[index].category == baseCategory ? 1 : 0,
                skinless && candidate.states.contains(.skinless) ? 1 : 0,
                Double(candidate.words.intersection(baseWords.words).count),
                !states.contains(.salted) && candidate.states.contains(.salted) ? 0 : 1,
                -Double(candidate.words.subtracting(baseWords.words).subtracting(keyWords).count),
                -Double(candidate.datasetRank),
                candidate.completeness,
                -Double(foods[index].description.count),
            ]
            if let current = best, !rank.lexicographicallyPrecedes(current.rank, by: >) { continue }
            best = (rank, index)
        }
        return best?.index
    }

    /// Whether `candidate` beats `current`: a higher score, else the preferred dataset, the shorter description, the
    /// alphabetically first.
    private func isBetter(_ candidate: (score: Double, index: Int), than current: (score: Double, index: Int)) -> Bool {
        if candidate.score != current.score { return candidate.score > current.score }
        let (a, b) = (descriptions[candidate.index], descriptions[current.index])
        if a.datasetRank != b.datasetRank { return a.datasetRank < b.datasetRank }
        let (nameA, nameB) = (foods[candidate.index].description, foods[current.index].description)
        if nameA.count != nameB.count { return nameA.count < nameB.count }
        return nameA < nameB
    }
}

/// A food of the nutrition table by the two fields that name it.
public struct FoodReference: Sendable, Hashable {
    public let dataset: String
    public let description: String

    public init(_ dataset: String, _ description: String) {
        self.dataset = dataset
        self.description = description
    }
}

/// A food's description read for word overlap.
private struct DescriptionWords {
    /// Words that say nothing about what a food is: left out on both sides. `raw` counts apart, as a preference.
    static let ignored: Set<String> = [
        "and", "or", "with", "without", "of", "in", "to", "as", "from", "for", "the", "ns", "nfs", "raw", "fresh", "chopped",
        "diced", "sliced", "minced", "grated", "large", "small", "medium", "taste", "fillet",
    ]

    /// First words that name a class of foods: the food is the word after ("Fish, sardine", "Cheese, ricotta").
    static let classWords: Set<String> = [
        "nut", "spice", "fish", "crustacean", "mollusk", "cheese", "oil", "bean", "seed", "cereal", "beverage", "sauce", "syrup",
        "leavening", "alcoholic", "pepper",
    ]

    /// Categories of products made of several foods: never the cooked or canned form of a plain food.
    static let processedCategories: Set<String> = [
        "Sausages and Luncheon Meats", "Fast Foods", "Restaurant Foods", "Meals, Entrees, and Side Dishes", "Snacks",
        "Baby Foods",
    ]

    let words: Set<String>
    let head: Set<String>
    let isRaw: Bool
    /// The states the description says (``FoodState/described(in:)``).
    let states: Set<FoodState>
    /// How the food was cooked, when the description says (``FoodState/methods(in:)``).
    let methods: Set<String>
    /// The share of the eight nutrients the food reports.
    let completeness: Double
    /// 0 for Foundation, 1 for SR Legacy, 2 for FNDDS survey foods (mixed dishes and foods as eaten).
    let datasetRank: Int

    init(_ food: Food) {
        let all = IngredientKey.of(food.description).split(separator: " ").map(String.init)
        let said = FoodState.described(in: all)
        states = said.states
        methods = FoodState.methods(in: all)
        words = Set(all.indices.lazy.filter { !said.positions.contains($0) }.map { all[$0] }).subtracting(Self.ignored)
        head = Set(all.prefix(all.first.map(Self.classWords.contains) == true ? 2 : 1))
        isRaw = states.contains(.raw)
        completeness = Double(food.per100g.count { $0 != nil }) / Double(Nutrient.allCases.count)
        datasetRank = ["foundation": 0, "sr_legacy": 1][food.dataset] ?? 2
    }

    /// Whether the food is in every state of `asked`: cooked or dried, canned, frozen, smoked, salted as said; raw and
    /// unsalted where it says it is not cooked, not salted.
    func satisfies(_ asked: Set<FoodState>) -> Bool {
        asked.allSatisfy { state in
            switch state {
            case .raw: !states.contains(.cooked)
            case .unsalted: !states.contains(.salted)
            case .skinless: true
            default: states.contains(state)
            }
        }
    }

    /// States a name that says none does not mean: its food as bought, not roasted, salted or canned.
    static let processing: Set<FoodState> = [.cooked, .salted, .canned, .dried, .smoked, .frozen]

    /// The overlap score with a name's `words`: from 0 to 0.95, below a synonym's 1; 0.05 less for a food in a state
    /// of ``processing`` (the name's states pick such a row afterwards).
    func score(against name: Set<String>) -> Double {
        let shared = Double(name.intersection(words).count)
        let coverage = shared / Double(name.count)
        let precision = words.isEmpty ? 0 : shared / Double(words.count)
        return 0.5 * coverage + 0.1 * precision + 0.1 * (name.isDisjoint(with: head) ? 0 : 1) + 0.1 * (isRaw ? 1 : 0)
            - 0.05 * (states.isDisjoint(with: Self.processing) ? 0 : 1)
            + 0.1 * (datasetRank < 2 ? 1 : 0) + 0.05 * completeness
    }
}
