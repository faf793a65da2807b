import KiwiDietGuard

/// A recipe ingredient's food in the nutrition table, and how sure the match is.
public struct FoodMatch: Sendable, Hashable {
    public let food: Food
    /// 1 for a curated synonym; below 1, the word-overlap score.
    public let confidence: Double
}

/// Finds an ingredient's food in the nutrition table (docs/architecture.md, "Quantities, scaling and nutrition"):
/// 1. the ingredient's name is normalised by ``IngredientKey`` (lower case, no diacritics, leading amounts and
///    preparation words dropped, each word singular: "2 Fresh Tomatoes" → `tomato`);
/// 2. a curated synonym of that key names the food exactly (``synonyms``, confidence 1);
/// 3. else every food sharing a word with the key is scored by word overlap, its description normalised the same
///    way: how many of the ingredient's words it has (most weight), how few words of its own it adds, whether its
///    head (its first word, what the food is; the second after a class word: "Nuts, almonds", "Spices, nutmeg") is one
///    of the ingredient's, whether it is raw (or uncooked, unprepared), whether it is a generic Foundation or SR Legacy
///    food rather than an FNDDS dish, and how many of the eight nutrients it reports. Ties go to the dataset (Foundation, SR Legacy, FNDDS),
///    then the shorter and the alphabetically first description, so the same name always gets the same food;
/// 4. a best score below ``threshold`` is no match.
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
        "mayonnaise": .init("sr_legacy", "Mayonnaise dressing, no cholesterol"),
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

    /// The food `name` most likely is, or nil when none scores ``threshold``.
    public func match(_ name: String) -> FoodMatch? {
        let key = IngredientKey.of(name)
        if let reference = Self.synonyms[key], let food = food(reference) { return FoodMatch(food: food, confidence: 1) }
        let words = Set(key.split(separator: " ").map(String.init)).subtracting(DescriptionWords.ignored)
        guard !words.isEmpty else { return nil }
        var best: (score: Double, index: Int)?
        for index in Set(words.flatMap { byWord[$0] ?? [] }) {
            let score = descriptions[index].score(against: words)
            if let current = best, !isBetter((score, index), than: current) { continue }
            best = (score, index)
        }
        guard let best, best.score >= Self.threshold else { return nil }
        return FoodMatch(food: foods[best.index], confidence: (best.score * 100).rounded() / 100)
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
    /// Words that say a food is as bought, before cooking.
    static let rawWords: Set<String> = ["raw", "uncooked", "unprepared"]

    let words: Set<String>
    let head: Set<String>
    let isRaw: Bool
    /// The share of the eight nutrients the food reports.
    let completeness: Double
    /// 0 for Foundation, 1 for SR Legacy, 2 for FNDDS survey foods (mixed dishes and foods as eaten).
    let datasetRank: Int

    init(_ food: Food) {
        let all = IngredientKey.of(food.description).split(separator: " ").map(String.init)
        words = Set(all).subtracting(Self.ignored)
        head = Set(all.prefix(all.first.map(Self.classWords.contains) == true ? 2 : 1))
        isRaw = !Self.rawWords.isDisjoint(with: all)
        completeness = Double(food.per100g.count { $0 != nil }) / Double(Nutrient.allCases.count)
        datasetRank = ["foundation": 0, "sr_legacy": 1][food.dataset] ?? 2
    }

    /// The overlap score with a name's `words`: from 0 to 0.95, below a synonym's 1.
    func score(against name: Set<String>) -> Double {
        let shared = Double(name.intersection(words).count)
        let coverage = shared / Double(name.count)
        let precision = words.isEmpty ? 0 : shared / Double(words.count)
        return 0.5 * coverage + 0.1 * precision + 0.1 * (name.isDisjoint(with: head) ? 0 : 1) + 0.1 * (isRaw ? 1 : 0)
            + 0.1 * (datasetRank < 2 ? 1 : 0) + 0.05 * completeness
    }
}
