import KiwiModels

/// Realistic, varied and deterministic answers: the photo's hash picks a fridge, how many of its recipes are
/// offered and small variations of the confidences, so the same photo always gets the same answer.
enum FridgeAnswers {
    struct Recipe {
        var name: String
        var summary: String
        var minutes: Int
        var difficulty: String
        /// Name, detected in the photo, substitution.
        var ingredients: [(String, Bool, String?)]
        var steps: [String]
        var tip: String?
        /// Declared truthfully, as the prompt asks: every group an ingredient or a step brings, hidden ones included
        /// (soy sauce brings gluten too).
        var allergens: [KitchenProfile.Allergen]
    }

    struct Fridge {
        /// Name, category, confidence.
        var ingredients: [(String, String, Double)]
        var recipes: [Recipe]
    }

    /// A valid model answer (no ids, as the schema asks) for a photo with this SHA-256 digest.
    static func answer(forDigest digest: [UInt8]) -> JSONValue {
        let fridge = fridges[Int(digest[0]) % fridges.count]
        let recipeCount = min(fridge.recipes.count, 2 + Int(digest[1]) % 3)
        let ingredients = fridge.ingredients.enumerated().map { index, ingredient in
            let wobble = Double(Int(digest[(2 + index) % digest.count]) % 9 - 4) / 100
            return object([
                "name": .string(ingredient.0), "category": .string(ingredient.1),
                "confidence": .number(JSONNumber(min(0.99, max(0.5, ingredient.2 + wobble)))),
            ])
        }
        return object(["ingredients": .array(ingredients), "recipes": .array(fridge.recipes.prefix(recipeCount).map(json))])
    }

    /// The answer for a photo without food.
    static let noFood = object(["ingredients": .array([]), "recipes": .array([])])

    /// JSON that breaks the contract in two places: a difficulty outside the enum and a cook time of zero.
    static func offSchema(forDigest digest: [UInt8]) -> JSONValue {
        guard case .object(var root) = answer(forDigest: digest), case .array(var recipes)? = root["recipes"],
            case .object(var first) = recipes[0]
        else { return noFood }
        first["difficulty"] = .string("hard")
        first["cookTimeMinutes"] = .number(JSONNumber(0))
        recipes[0] = .object(first)
        root["recipes"] = .array(recipes)
        return .object(root)
    }

    /// What a model writes when it ignores the format.
    static let prose =
        "Sure! Here are some quick recipes you can make with what's in your fridge:\n\n1. Spinach omelette — whisk the eggs, "
        + "wilt the spinach, fold and serve.\n2. Yogurt parfait — layer yogurt with berries."

    private static func json(_ recipe: Recipe) -> JSONValue {
        object([
            "name": .string(recipe.name), "summary": .string(recipe.summary), "cookTimeMinutes": .number(JSONNumber(recipe.minutes)),
            "difficulty": .string(recipe.difficulty),
            "ingredients": .array(
                recipe.ingredients.map { name, detected, substitution in
                    object(["name": .string(name), "isDetected": .bool(detected), "substitution": substitution.map(JSONValue.string) ?? .null])
                }
            ),
            "steps": .array(recipe.steps.map(JSONValue.string)), "makeItFasterTip": recipe.tip.map(JSONValue.string) ?? .null,
            "allergens": .array(recipe.allergens.map { .string($0.rawValue) }),
        ])
    }

    private static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(JSONObject(pairs))
    }

    static let fridges: [Fridge] = [
        Fridge(
            ingredients: [
                ("Eggs", "Protein", 0.96), ("Spinach", "Vegetable", 0.88), ("Cheddar cheese", "Dairy", 0.84),
                ("Milk", "Dairy", 0.93), ("Cherry tomatoes", "Vegetable", 0.81),
            ],
            recipes: [
                Recipe(
                    name: "Spinach and cheddar omelette",
                    summary: "A fluffy two-egg omelette folded around wilted spinach and sharp cheddar.",
                    minutes: 10,
                    difficulty: "easy",
                    ingredients: [("Eggs", true, nil), ("Spinach", true, nil), ("Cheddar cheese", true, nil), ("Butter", false, "Olive oil")],
                    steps: [
                        "Whisk the eggs with a pinch of salt.", "Wilt the spinach in a buttered pan for a minute.",
                        "Pour in the eggs, add the cheese, fold and serve.",
                    ],
                    tip: "Use pre-grated cheese and a small pan so the eggs set faster.",
                    allergens: [.eggs, .milk]
                ),
                Recipe(
                    name: "Blistered tomato scramble",
                    summary: "Soft scrambled eggs with cherry tomatoes blistered in the same pan.",
                    minutes: 8,
                    difficulty: "easy",
                    ingredients: [("Eggs", true, nil), ("Cherry tomatoes", true, nil), ("Milk", true, nil), ("Black pepper", false, nil)],
                    steps: [
                        "Halve the tomatoes and sear them cut side down.", "Whisk eggs with a splash of milk.",
                        "Scramble the eggs gently over the tomatoes and season.",
                    ],
                    tip: "Skip halving: crush whole tomatoes with a fork in the pan.",
                    allergens: [.eggs, .milk]
                ),
                Recipe(
                    name: "Cheesy spinach quesadilla",
                    summary: "Crisp tortilla filled with melted cheddar and spinach.",
                    minutes: 12,
                    difficulty: "easy",
                    ingredients: [("Tortilla", false, "Sliced bread, toasted as a sandwich"), ("Cheddar cheese", true, nil), ("Spinach", true, nil)],
                    steps: [
                        "Scatter cheese and spinach over half a tortilla.", "Fold and toast in a dry pan, 2 minutes a side.", "Cut into wedges.",
                    ],
                    tip: "Press with a second pan to toast both sides at once.",
                    allergens: [.gluten, .milk]
                ),
            ]
        ),
        Fridge(
            ingredients: [
                ("Chicken breast", "Protein", 0.91), ("Bell pepper", "Vegetable", 0.87), ("Greek yogurt", "Dairy", 0.8),
                ("Lemon", "Fruit", 0.78), ("Cooked rice", "Grain", 0.72), ("Soy sauce", "Condiment", 0.69),
            ],
            recipes: [
                Recipe(
                    name: "Ten-minute chicken fried rice",
                    summary: "Day-old rice fried hot with diced chicken, pepper and soy sauce.",
                    minutes: 15,
                    difficulty: "easy",
                    ingredients: [
                        ("Cooked rice", true, nil), ("Chicken breast", true, nil), ("Bell pepper", true, nil),
                        ("Soy sauce", true, nil), ("Egg", false, "Leave it out or add frozen peas"),
                    ],
                    steps: [
                        "Dice the chicken small and stir-fry until cooked.", "Add diced pepper for two minutes.",
                        "Add rice and soy sauce and fry until hot.",
                    ],
                    tip: "Cut the chicken into thin strips: it cooks in half the time.",
                    allergens: [.eggs, .gluten, .soybeans]
                ),
                Recipe(
                    name: "Lemon yogurt chicken skewers",
                    summary: "Chicken marinated briefly in yogurt and lemon, grilled in a pan.",
                    minutes: 25,
                    difficulty: "medium",
                    ingredients: [
                        ("Chicken breast", true, nil), ("Greek yogurt", true, nil), ("Lemon", true, nil), ("Garlic", false, "Garlic powder"),
                    ],
                    steps: ["Mix yogurt, lemon juice, salt and garlic.", "Coat chicken cubes for 10 minutes.", "Sear in a hot pan until charred."],
                    tip: "Skip the skewers and sear the cubes loose.",
                    allergens: [.milk]
                ),
                Recipe(
                    name: "Pepper and chicken rice bowl",
                    summary: "Warm rice topped with seared chicken, peppers and a lemon-yogurt drizzle.",
                    minutes: 18,
                    difficulty: "easy",
                    ingredients: [
                        ("Cooked rice", true, nil), ("Chicken breast", true, nil), ("Bell pepper", true, nil), ("Greek yogurt", true, nil),
                    ],
                    steps: ["Sear sliced chicken and peppers.", "Warm the rice.", "Top the rice and drizzle yogurt thinned with lemon."],
                    tip: nil,
                    allergens: [.milk]
                ),
                Recipe(
                    name: "Soy-glazed peppers",
                    summary: "A fast side of peppers glazed with soy sauce.",
                    minutes: 7,
                    difficulty: "easy",
                    ingredients: [("Bell pepper", true, nil), ("Soy sauce", true, nil), ("Honey", false, "Sugar")],
                    steps: ["Slice the pepper.", "Stir-fry hot for three minutes, add soy and honey, toss."],
                    tip: "Buy pre-sliced peppers.",
                    allergens: [.gluten, .soybeans]
                ),
            ]
        ),
        Fridge(
            ingredients: [
                ("Tofu", "Protein", 0.85), ("Broccoli", "Vegetable", 0.9), ("Carrots", "Vegetable", 0.88),
                ("Orange juice", "Beverage", 0.74), ("Peanut butter", "Condiment", 0.7),
            ],
            recipes: [
                Recipe(
                    name: "Peanut tofu stir-fry",
                    summary: "Crispy tofu and broccoli in a quick peanut sauce.",
                    minutes: 20,
                    difficulty: "medium",
                    ingredients: [
                        ("Tofu", true, nil), ("Broccoli", true, nil), ("Peanut butter", true, nil),
                        ("Soy sauce", false, "Salt and a squeeze of lime"),
                    ],
                    steps: [
                        "Press and cube the tofu, then fry until golden.", "Add broccoli florets and a splash of water; cover 3 minutes.",
                        "Stir in peanut butter loosened with soy sauce and hot water.",
                    ],
                    tip: "Tear the tofu instead of cubing it: more crisp edges, no knife.",
                    allergens: [.gluten, .peanuts, .soybeans]
                ),
                Recipe(
                    name: "Orange-glazed carrots",
                    summary: "Carrot coins simmered in orange juice until glossy.",
                    minutes: 15,
                    difficulty: "easy",
                    ingredients: [("Carrots", true, nil), ("Orange juice", true, nil), ("Butter", false, "Olive oil")],
                    steps: ["Slice carrots into coins.", "Simmer in orange juice with butter until the juice reduces to a glaze."],
                    tip: "Use baby carrots whole.",
                    allergens: [.milk]
                ),
            ]
        ),
        Fridge(
            ingredients: [
                ("Pasta", "Grain", 0.82), ("Parmesan", "Dairy", 0.86), ("Zucchini", "Vegetable", 0.83), ("Bacon", "Protein", 0.9),
                ("Cream", "Dairy", 0.77), ("Mustard", "Condiment", 0.65), ("Apples", "Fruit", 0.8),
            ],
            recipes: [
                Recipe(
                    name: "Bacon and zucchini pasta",
                    summary: "Pasta tossed with crisp bacon, zucchini ribbons and parmesan.",
                    minutes: 20,
                    difficulty: "easy",
                    ingredients: [("Pasta", true, nil), ("Bacon", true, nil), ("Zucchini", true, nil), ("Parmesan", true, nil)],
                    steps: [
                        "Boil the pasta.", "Crisp chopped bacon, then add zucchini ribbons for two minutes.",
                        "Toss with pasta, a splash of pasta water and parmesan.",
                    ],
                    tip: "Use a peeler for the zucchini: ribbons cook in a minute.",
                    allergens: [.gluten, .milk]
                ),
                Recipe(
                    name: "Creamy mustard pasta",
                    summary: "A five-ingredient cream sauce sharpened with mustard.",
                    minutes: 15,
                    difficulty: "easy",
                    ingredients: [("Pasta", true, nil), ("Cream", true, nil), ("Mustard", true, nil), ("Parmesan", true, nil)],
                    steps: ["Boil the pasta.", "Warm cream with a spoon of mustard.", "Toss with pasta and parmesan."],
                    tip: "Cook small pasta shapes: they are ready in 6–8 minutes.",
                    allergens: [.gluten, .milk, .mustard]
                ),
                Recipe(
                    name: "Apple and parmesan salad",
                    summary: "Thin apple slices with shaved parmesan and a mustard dressing.",
                    minutes: 5,
                    difficulty: "easy",
                    ingredients: [("Apples", true, nil), ("Parmesan", true, nil), ("Mustard", true, nil), ("Olive oil", false, "Any neutral oil")],
                    steps: ["Slice the apple thinly.", "Shave parmesan over it.", "Whisk mustard with oil and drizzle."],
                    tip: nil,
                    allergens: [.milk, .mustard]
                ),
            ]
        ),
    ]
}
