import KiwiDietGuard

/// The store sections a pantry and a shopping list are grouped by. They are the categories the model gives each
/// detected ingredient (docs/architecture.md, "The system prompt"), so one vocabulary runs from the photo to the
/// shop; `allCases` is the order a shopping list walks the shop in.
public enum StoreSection: String, Sendable, Hashable, CaseIterable {
    case vegetable = "Vegetable"
    case fruit = "Fruit"
    case protein = "Protein"
    case dairy = "Dairy"
    case grain = "Grain"
    case condiment = "Condiment"
    case beverage = "Beverage"
    case other = "Other"

    /// The section a category names, matched without regard to case; ``other`` for one the model made up.
    public init(category: String) {
        self = Self(named: category) ?? .other
    }

    /// The section `name` names, matched without regard to case; nil for any other text, so that a person's typo is
    /// refused rather than filed under ``other``.
    public init?(named name: String) {
        guard let section = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = section
    }

    /// The section of an ingredient known only by name (a recipe's ingredient, one typed by hand): its key's entry in
    /// ``typicalSections``, else its last word's (`cherry tomato` → `tomato`), else ``other``.
    public init(key: String) {
        let lastWord = key.split(separator: " ").last.map(String.init) ?? key
        self = Self.typicalSections[key] ?? Self.typicalSections[lastWord] ?? .other
    }

    /// Where common ingredients are sold, by ``IngredientKey``: the documented table of docs/architecture.md, "The
    /// pantry and the shopping list".
    static let typicalSections: [String: StoreSection] = {
        let words: [StoreSection: [String]] = [
            .vegetable: [
                "tomato", "onion", "garlic", "potato", "carrot", "pepper", "bell pepper", "cucumber", "lettuce", "spinach",
                "broccoli", "cauliflower", "zucchini", "courgette", "eggplant", "aubergine", "mushroom", "celery", "leek",
                "cabbage", "kale", "pea", "bean", "green bean", "corn", "avocado", "shallot", "scallion", "spring onion", "ginger",
                "chili", "herb", "basil", "parsley", "cilantro", "coriander", "dill", "mint", "rosemary", "thyme", "asparagus",
                "radish", "beet", "sweet potato", "squash", "pumpkin", "arugula", "rocket", "salad",
            ],
            .fruit: [
                "apple", "banana", "orange", "lemon", "lime", "berry", "strawberry", "blueberry", "raspberry", "grape", "pear",
                "peach", "plum", "mango", "pineapple", "melon", "watermelon", "kiwi", "cherry", "apricot", "fig", "date",
                "raisin",
            ],
            .protein: [
                "egg", "chicken", "beef", "pork", "lamb", "turkey", "bacon", "ham", "sausage", "fish", "salmon", "tuna", "cod",
                "shrimp", "prawn", "tofu", "tempeh", "lentil", "chickpea", "mince", "steak", "chorizo",
            ],
            .dairy: [
                "milk", "butter", "cheese", "cheddar", "mozzarella", "parmesan", "feta", "yogurt", "yoghurt", "cream",
                "sour cream", "cream cheese", "creme fraiche", "ricotta",
            ],
            .grain: [
                "rice", "pasta", "spaghetti", "noodle", "bread", "flour", "oat", "quinoa", "couscous", "tortilla", "wrap",
                "cereal", "breadcrumb", "bulgur", "barley", "cracker",
            ],
            .condiment: [
                "salt", "black pepper", "oil", "olive oil", "vinegar", "soy sauce", "mustard", "ketchup", "mayonnaise", "honey",
                "sugar", "sauce", "pesto", "spice", "cumin", "paprika", "cinnamon", "stock", "broth", "jam", "syrup",
            ],
            .beverage: ["water", "juice", "coffee", "tea", "wine", "beer", "soda"],
        ]
        return Dictionary(uniqueKeysWithValues: words.flatMap { section, keys in keys.map { ($0, section) } })
    }()
}
