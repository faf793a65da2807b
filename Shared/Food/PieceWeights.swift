import KiwiModels

/// What one piece of a food weighs (an egg, an onion, a clove of garlic, a slice of bread, a bunch of spinach), from a
/// FoodData Central portion: the grams of `portion` of the food `food` (SR Legacy unless it says otherwise;
/// docs/architecture.md, "Quantities, scaling and nutrition"). A piece is a typical one, so a weight from here is
/// always an estimate.
public struct PieceWeight: Sendable, Hashable {
    /// The ``IngredientKey``s the row answers for.
    public var keys: [String]
    /// The grams of one piece.
    public var grams: Double
    /// The food's description in FoodData Central.
    public var food: String
    /// The portion's description in FoodData Central.
    public var portion: String

    /// One piece, clove or slice of common foods. Garlic is counted by the clove.
    public static let pieces: [PieceWeight] = [
        .init(["egg"], 50, "Egg, whole, raw, fresh", "1 large"),
        .init(["egg yolk"], 17, "Egg, yolk, raw, fresh", "1 large"),
        .init(["egg white"], 33, "Egg, white, raw, fresh", "1 large"),
        .init(["dried fig"], 8.4, "Figs, dried, uncooked", "1 fig"),
        .init(["onion", "yellow onion", "white onion", "red onion"], 110, "Onions, raw", "1 medium (2-1/2\" dia)"),
        .init(["garlic", "garlic clove", "clove garlic"], 3, "Garlic, raw", "1 clove"),
        .init(["tomato"], 123, "Tomatoes, red, ripe, raw, year round average", "1 medium whole (2-3/5\" dia)"),
        .init(["cherry tomato"], 17, "Tomatoes, red, ripe, raw, year round average", "1 cherry"),
        .init(["potato"], 213, "Potatoes, flesh and skin, raw", "1 medium (2-1/4\" to 3-1/4\" dia)"),
        .init(["sweet potato"], 130, "Sweet potato, raw, unprepared", "1 sweetpotato, 5\" long"),
        .init(["carrot"], 61, "Carrots, raw", "1 medium"),
        .init(
            ["bell pepper", "red bell pepper", "green bell pepper", "yellow bell pepper", "red pepper", "green pepper"],
            119,
            "Peppers, sweet, red, raw",
            "1 medium (approx 2-3/4\" long, 2-1/2\" dia)"
        ),
        .init(["jalapeno", "jalapeno pepper"], 14, "Peppers, jalapeno, raw", "1 pepper"),
        .init(["chili", "chili pepper", "red chili", "green chili"], 45, "Peppers, hot chili, red, raw", "1 pepper"),
        .init(["lemon"], 58, "Lemons, raw, without peel", "1 fruit (2-1/8\" dia)"),
        .init(["lime"], 67, "Limes, raw", "1 fruit (2\" dia)"),
        .init(["orange"], 131, "Oranges, raw, all commercial varieties", "1 fruit (2-5/8\" dia)"),
        .init(["apple"], 182, "Apples, raw, with skin", "1 medium (3\" dia)"),
        .init(["pear"], 178, "Pears, raw", "1 medium"),
        .init(["banana"], 118, "Bananas, raw", "1 medium (7\" to 7-7/8\" long)"),
        .init(["peach"], 150, "Peaches, yellow, raw", "1 medium (2-2/3\" dia)"),
        .init(["mango"], 336, "Mangos, raw", "1 fruit without refuse"),
        .init(["kiwi", "kiwifruit"], 69, "Kiwifruit, green, raw", "1 fruit (2\" dia)"),
        .init(["strawberry"], 12, "Strawberries, raw", "1 medium (1-1/4\" dia)"),
        .init(["avocado"], 201, "Avocados, raw, all commercial varieties", "1 fruit, without skin and seed"),
        .init(["zucchini", "courgette"], 196, "Squash, summer, zucchini, includes skin, raw", "1 medium"),
        .init(["cucumber"], 301, "Cucumber, with peel, raw", "1 cucumber (8-1/4\")"),
        .init(["eggplant", "aubergine"], 548, "Eggplant, raw", "1 eggplant, unpeeled (approx 1-1/4 lb)"),
        .init(["celery", "celery stalk", "celery stick"], 40, "Celery, raw", "1 stalk, medium (7-1/2\" - 8\" long)"),
        .init(["leek"], 89, "Leeks, (bulb and lower leaf-portion), raw", "1 leek"),
        .init(
            ["green onion", "spring onion", "scallion"],
            15,
            "Onions, spring or scallions (includes tops and bulb), raw",
            "1 medium (4-1/8\" long)"
        ),
        .init(["mushroom", "white mushroom", "button mushroom"], 18, "Mushrooms, white, raw", "1 medium"),
        .init(
            ["chicken breast", "chicken breast fillet"],
            174,
            "Chicken, broilers or fryers, breast, meat only, raw",
            "1/2 breast, bone and skin removed"
        ),
        .init(["bread", "white bread", "bread slice", "slice bread", "toast"], 27.3, "Bread, white, commercially prepared (Foundation)", "1 slice"),
        .init(["tortilla", "flour tortilla", "wrap"], 49, "Tortillas, ready-to-bake or -fry, flour", "1 tortilla (approx 7-8\" dia)"),
        .init(["corn tortilla"], 26, "Tortillas, ready-to-bake or -fry, corn", "1 tortilla, medium (approx 6\" dia)"),
        .init(["pita", "pita bread"], 60, "Bread, pita, white, enriched", "1 pita, large (6-1/2\" dia)"),
        .init(["cheddar", "cheddar cheese", "cheese slice"], 17, "Cheese, cheddar (Foundation)", "1 slice"),
        .init(["yeast", "dry yeast", "active dry yeast"], 7, "Leavening agents, yeast, baker's, active dry", "1 pkg"),
    ]

    /// One bunch of the foods that are sold by the bunch.
    public static let bunches: [PieceWeight] = [
        .init(["spinach"], 340, "Spinach, raw", "1 bunch"),
        .init(["broccoli"], 608, "Broccoli, raw", "1 bunch"),
        .init(["romaine", "romaine lettuce", "cos lettuce"], 581, "Lettuce, cos or romaine, raw (Foundation)", "1 bunch"),
    ]

    /// One pack of the foods whose pack has a standard size.
    public static let packs: [PieceWeight] = [
        .init(["yeast", "dry yeast", "active dry yeast"], 7, "Leavening agents, yeast, baker's, active dry", "1 pkg")
    ]

    /// Grams of one piece, clove or slice by key, from ``pieces``.
    public static let pieceGrams = byKey(pieces)
    /// Grams of one bunch by key, from ``bunches``.
    public static let bunchGrams = byKey(bunches)
    /// Grams of one pack by key, from ``packs``.
    public static let packGrams = byKey(packs)

    private static func byKey(_ rows: [PieceWeight]) -> [String: Double] {
        Dictionary(rows.flatMap { row in row.keys.map { ($0, row.grams) } }, uniquingKeysWith: { first, _ in first })
    }

    init(_ keys: [String], _ grams: Double, _ food: String, _ portion: String) {
        self.keys = keys
        self.grams = grams
        self.food = food
        self.portion = portion
    }
}
