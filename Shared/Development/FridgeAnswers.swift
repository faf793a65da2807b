import KiwiModels
import KiwiStrictJSON

/// Realistic, varied and deterministic fridge answers, as gpt-4o writes them: the OpenAI stub's, where the photo's hash
/// picks a fridge and small variations of the confidences, so the same photo always gets the same answer; tests' and
/// benchmarks' too.
public enum FridgeAnswers {
    struct Recipe {
        var name: String
        var summary: String
        var minutes: Int
        var difficulty: String
        /// Name, detected in the photo, substitution, amount and unit for ``servings``.
        var ingredients: [(String, Bool, String?, Double?, QuantityUnit?)]
        var steps: [String]
        /// The minutes a step waits (simmering, baking, resting), by the step's number from 1.
        var timers: [Int: Int]
        var tip: String?
        /// Declared truthfully, as the prompt asks: every group an ingredient or a step brings, hidden ones included
        /// (soy sauce brings gluten too).
        var allergens: [KitchenProfile.Allergen]
        /// What the prompt asks for without a profile.
        var servings = 2
    }

    struct Fridge {
        /// Name, category, confidence.
        var ingredients: [(String, String, Double)]
        var recipes: [Recipe]
        /// Each ingredient's plain English name by its name, detected or in a recipe: what a model asked for an answer in
        /// another language writes as its `canonicalName`; empty for an English fridge.
        var englishNames: [String: String] = [:]
    }

    /// A valid model answer (no ids, as the schema asks) for a photo with this SHA-256 digest: a fridge's four recipes,
    /// about 1,650 completion tokens, the size of a real four-recipe gpt-4o answer with quantities and step details. In
    /// another language than English, that language's one fridge (``fridgesByLanguage``), as a model asked for it writes.
    public static func answer(forDigest digest: [UInt8], in language: AnswerLanguage = .en) -> JSONValue {
        let fridge = fridgesByLanguage[language] ?? fridges[Int(digest[0]) % fridges.count]
        return answer(fridge, recipes: fridge.recipes) { index in Double(Int(digest[(2 + index) % digest.count]) % 9 - 4) / 100 }
    }

    /// Every fridge's answer as written, without the confidences' variations: a benchmark's representative mix.
    public static var everyFridge: [JSONValue] {
        fridges.map { answer($0, recipes: $0.recipes) { _ in 0 } }
    }

    /// A canned answer whose second recipe contains `allergen` and whose first does not, the fridge's other recipes
    /// after them (from the fridge with the fewest recipes containing it): what a test dictates
    /// (``StubBehaviour/answers``) to see the guard hold back a recipe between two it shows. nil when no fridge has a
    /// recipe with it and one without it.
    public static func answer(withSecondRecipeContaining allergen: KitchenProfile.Allergen) -> String? {
        func containing(_ recipe: Recipe) -> Bool { recipe.allergens.contains(allergen) }
        let candidates = fridges.filter { $0.recipes.contains(where: containing) && !$0.recipes.allSatisfy(containing) }
        guard let fridge = candidates.min(by: { $0.recipes.count(where: containing) < $1.recipes.count(where: containing) }),
            let first = fridge.recipes.firstIndex(where: { !containing($0) }), let second = fridge.recipes.firstIndex(where: containing)
        else { return nil }
        let order = [first, second] + fridge.recipes.indices.filter { $0 != first && $0 != second }
        return answer(fridge, recipes: order.map { fridge.recipes[$0] }) { _ in 0 }.serialized()
    }

    /// `fridge`'s ingredients, each confidence moved by `wobble(index)` within 0.5–0.99, and `recipes`.
    private static func answer(_ fridge: Fridge, recipes: [Recipe], wobble: (Int) -> Double) -> JSONValue {
        let ingredients = fridge.ingredients.enumerated().map { index, ingredient in
            named(
                ingredient.0,
                in: fridge,
                [
                    "category": .string(ingredient.1),
                    "confidence": .number(JSONNumber(min(0.99, max(0.5, ingredient.2 + wobble(index))))),
                ]
            )
        }
        return object(["ingredients": .array(ingredients), "recipes": .array(recipes.map { json($0, in: fridge) })])
    }

    /// An ingredient's object: its name, its `canonicalName` when `fridge` is in another language than English, then
    /// `members`.
    private static func named(_ name: String, in fridge: Fridge, _ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        var object = JSONObject(["name": .string(name)])
        if let english = fridge.englishNames[name] { object["canonicalName"] = .string(english) }
        for (key, value) in members { object[key] = value }
        return .object(object)
    }

    /// The answer for a photo without food.
    public static let noFood = object(["ingredients": .array([]), "recipes": .array([])])

    /// JSON that breaks the contract in two places: a difficulty outside the enum and a cook time of zero.
    public static func offSchema(forDigest digest: [UInt8]) -> JSONValue {
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
    public static let prose =
        "Sure! Here are some quick recipes you can make with what's in your fridge:\n\n1. Spinach omelette — whisk the eggs, "
        + "wilt the spinach, fold and serve.\n2. Yogurt parfait — layer yogurt with berries."

    private static func json(_ recipe: Recipe, in fridge: Fridge) -> JSONValue {
        object([
            "name": .string(recipe.name), "summary": .string(recipe.summary), "cookTimeMinutes": .number(JSONNumber(recipe.minutes)),
            "difficulty": .string(recipe.difficulty),
            "ingredients": .array(
                recipe.ingredients.map { name, detected, substitution, amount, unit in
                    named(
                        name,
                        in: fridge,
                        [
                            "isDetected": .bool(detected), "substitution": substitution.map(JSONValue.string) ?? .null,
                            "amount": quantity(amount), "unit": unit.map { .string($0.rawValue) } ?? .null,
                        ]
                    )
                }
            ),
            "steps": .array(recipe.steps.map(JSONValue.string)), "makeItFasterTip": recipe.tip.map(JSONValue.string) ?? .null,
            "allergens": .array(recipe.allergens.map { .string($0.rawValue) }), "servings": .number(JSONNumber(recipe.servings)),
            "stepDetails": stepDetails(steps: recipe.steps.count, timers: recipe.timers),
        ])
    }

    /// An ingredient's amount as a model writes it: a whole number without a fraction.
    public static func quantity(_ amount: Double?) -> JSONValue {
        amount.map { .number($0 == $0.rounded() ? JSONNumber(Int($0)) : JSONNumber($0)) } ?? .null
    }

    /// One step detail per step, timed where `timers` (by step number from 1) says.
    public static func stepDetails(steps: Int, timers: [Int: Int]) -> JSONValue {
        .array((1...steps).map { .object(JSONObject(["durationMinutes": timers[$0].map { .number(JSONNumber($0)) } ?? .null])) })
    }

    private static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(JSONObject(pairs))
    }

    static let fridges: [Fridge] = [
        Fridge(
            ingredients: [
                ("Eggs", "Protein", 0.96), ("Spinach", "Vegetable", 0.88), ("Cheddar cheese", "Dairy", 0.84), ("Milk", "Dairy", 0.93),
                ("Cherry tomatoes", "Vegetable", 0.81), ("Red onion", "Vegetable", 0.76), ("Garlic", "Vegetable", 0.72), ("Lemon", "Fruit", 0.7),
            ],
            recipes: [
                Recipe(
                    name: "Spinach and cheddar omelette",
                    summary: "A fluffy two-egg omelette folded around wilted spinach and sharp cheddar, with cherry tomatoes on the side.",
                    minutes: 10,
                    difficulty: "easy",
                    ingredients: [
                        ("Eggs", true, nil, 4, .piece),
                        ("Spinach", true, nil, 60, .g),
                        ("Cheddar cheese", true, nil, 50, .g),
                        ("Milk", true, "A spoon of water", 2, .tbsp),
                        ("Cherry tomatoes", true, nil, 150, .g),
                        ("Butter", false, "Olive oil", 10, .g),
                        ("Salt and black pepper", false, nil, 1, .pinch),
                    ],
                    steps: [
                        "Whisk the eggs with a splash of milk and a pinch of salt.",
                        "Grate the cheddar and roughly chop the spinach.",
                        "Melt a knob of butter in a small non-stick pan over medium heat and wilt the spinach for about a minute.",
                        "Pour in the eggs and pull the set edges towards the middle with a spatula.",
                        "When the top is still slightly runny, scatter the cheddar over one half and season with black pepper.",
                        "Fold the omelette in half, cook thirty seconds more and slide it onto a plate.",
                        "Serve with halved cherry tomatoes on the side.",
                    ],
                    timers: [3: 1, 6: 1],
                    tip: "Use pre-grated cheese and a small pan so the eggs set faster.",
                    allergens: [.eggs, .milk]
                ),
                Recipe(
                    name: "Blistered tomato scramble",
                    summary: "Soft scrambled eggs over cherry tomatoes blistered in the same pan, with a little garlic and black pepper.",
                    minutes: 8,
                    difficulty: "easy",
                    ingredients: [
                        ("Eggs", true, nil, 4, .piece),
                        ("Cherry tomatoes", true, nil, 200, .g),
                        ("Milk", true, nil, 2, .tbsp),
                        ("Garlic", true, "Garlic powder", 1, .clove),
                        ("Olive oil", false, "Butter", 1, .tbsp),
                        ("Black pepper", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Halve the cherry tomatoes and thinly slice one clove of garlic.",
                        "Heat a spoon of olive oil in a frying pan over high heat and lay the tomatoes in cut side down.",
                        "Leave them for two minutes until they blister, then add the garlic for thirty seconds.",
                        "Meanwhile whisk the eggs with a splash of milk, a pinch of salt and plenty of black pepper.",
                        "Turn the heat to low, pour in the eggs and stir slowly, folding the curds as they form.",
                        "Take the pan off the heat while the eggs still look wet: they finish on the plate.",
                    ],
                    timers: [3: 2],
                    tip: "Skip halving: crush whole tomatoes with a fork in the pan.",
                    allergens: [.eggs, .milk]
                ),
                Recipe(
                    name: "Cheesy spinach quesadilla",
                    summary: "A crisp tortilla filled with melted cheddar, spinach and a little red onion, toasted in a dry pan.",
                    minutes: 12,
                    difficulty: "easy",
                    ingredients: [
                        ("Tortilla", false, "Sliced bread, toasted as a sandwich", 2, .piece),
                        ("Cheddar cheese", true, nil, 80, .g),
                        ("Spinach", true, nil, 40, .g),
                        ("Red onion", true, "Spring onion", 0.25, .piece),
                        ("Cherry tomatoes", true, nil, 150, .g),
                        ("Salt", false, nil, 1, .pinch),
                    ],
                    steps: [
                        "Grate the cheddar, finely slice a little red onion and chop the spinach.",
                        "Scatter the cheese, spinach and onion over half a tortilla.",
                        "Fold it over and press it down gently.",
                        "Toast in a dry pan over medium heat for two minutes, until golden.",
                        "Flip and toast the other side until the cheese melts.",
                        "Cut into wedges and serve with the cherry tomatoes.",
                    ],
                    timers: [4: 2, 5: 2],
                    tip: "Press with a second pan to toast both sides at once.",
                    allergens: [.gluten, .milk]
                ),
                Recipe(
                    name: "Garlicky spinach with blistered tomatoes",
                    summary: "A warm side of spinach wilted with garlic and lemon, with blistered cherry tomatoes and soft red onion.",
                    minutes: 10,
                    difficulty: "easy",
                    ingredients: [
                        ("Spinach", true, nil, 200, .g),
                        ("Cherry tomatoes", true, nil, 200, .g),
                        ("Garlic", true, "Garlic powder", 2, .clove),
                        ("Lemon", true, "A splash of vinegar", 0.5, .piece),
                        ("Red onion", true, nil, 0.5, .piece),
                        ("Olive oil", false, "Any neutral oil", 2, .tbsp),
                        ("Chili flakes", false, "Black pepper", 0.25, .tsp),
                    ],
                    steps: [
                        "Slice the red onion into thin half-moons and the garlic into thin slices.",
                        "Blister the whole tomatoes in two spoons of hot olive oil for three minutes.",
                        "Push them aside, add the onion and cook for two minutes.",
                        "Add the garlic and chili flakes for thirty seconds.",
                        "Add the spinach in handfuls, turning until it wilts.",
                        "Season with salt and squeeze over half a lemon.",
                    ],
                    timers: [2: 3, 3: 2],
                    tip: "Buy baby spinach in a bag: no washing or chopping, and it wilts in under a minute.",
                    allergens: []
                ),
            ]
        ),
        Fridge(
            ingredients: [
                ("Chicken breast", "Protein", 0.91), ("Bell pepper", "Vegetable", 0.87), ("Greek yogurt", "Dairy", 0.8), ("Lemon", "Fruit", 0.78),
                ("Cooked rice", "Grain", 0.72), ("Soy sauce", "Condiment", 0.69), ("Spring onions", "Vegetable", 0.74),
                ("Cucumber", "Vegetable", 0.71),
            ],
            recipes: [
                Recipe(
                    name: "Ten-minute chicken fried rice",
                    summary: "Day-old rice fried hot with diced chicken, bell pepper, spring onions and soy sauce, with a scrambled egg.",
                    minutes: 15,
                    difficulty: "easy",
                    ingredients: [
                        ("Cooked rice", true, nil, 300, .g),
                        ("Chicken breast", true, nil, 250, .g),
                        ("Bell pepper", true, nil, 1, .piece),
                        ("Soy sauce", true, nil, 2, .tbsp),
                        ("Spring onions", true, "Chives", 3, .piece),
                        ("Egg", false, "Leave it out or add frozen peas", 1, .piece),
                        ("Vegetable oil", false, nil, 1, .tbsp),
                    ],
                    steps: [
                        "Dice the chicken and pepper small and slice the spring onions.",
                        "Stir-fry the chicken in hot oil for five minutes until cooked through.",
                        "Add the pepper and the white spring onion for two minutes.",
                        "Push everything to one side, crack the egg into the space and scramble it until just set.",
                        "Add the rice, breaking up clumps, and fry until piping hot.",
                        "Add the soy sauce, toss and finish with the green spring onion tops.",
                    ],
                    timers: [2: 5, 3: 2],
                    tip: "Cut the chicken into thin strips: it cooks in half the time.",
                    allergens: [.eggs, .gluten, .soybeans]
                ),
                Recipe(
                    name: "Lemon yogurt chicken skewers",
                    summary: "Chicken marinated briefly in yogurt, lemon and garlic, then seared in a hot pan until charred at the edges; "
                        + "served with a quick cucumber dip.",
                    minutes: 25,
                    difficulty: "medium",
                    ingredients: [
                        ("Chicken breast", true, nil, 300, .g),
                        ("Greek yogurt", true, nil, 150, .g),
                        ("Lemon", true, nil, 1, .piece),
                        ("Cucumber", true, nil, 0.5, .piece),
                        ("Garlic", false, "Garlic powder", 1, .clove),
                        ("Paprika", false, "Chili flakes", 1, .tsp),
                        ("Olive oil", false, nil, 1, .tbsp),
                    ],
                    steps: [
                        "Mix half the yogurt with lemon juice, garlic, paprika and salt.",
                        "Cut the chicken into bite-sized cubes and coat them in the marinade for ten minutes.",
                        "Grate some cucumber, squeeze it and stir it into the rest of the yogurt.",
                        "Thread the chicken onto skewers.",
                        "Sear in a hot pan for eight to ten minutes, turning often, until charred.",
                        "Squeeze over the rest of the lemon and serve with the dip.",
                    ],
                    timers: [2: 10, 5: 9],
                    tip: "Skip the skewers and sear the cubes loose.",
                    allergens: [.milk]
                ),
                Recipe(
                    name: "Pepper and chicken rice bowl",
                    summary: "Warm rice topped with seared chicken and bell peppers, fresh cucumber and a lemon-yogurt drizzle, ready while "
                        + "the rice reheats.",
                    minutes: 18,
                    difficulty: "easy",
                    ingredients: [
                        ("Cooked rice", true, nil, 300, .g),
                        ("Chicken breast", true, nil, 250, .g),
                        ("Bell pepper", true, nil, 1, .piece),
                        ("Greek yogurt", true, nil, 100, .g),
                        ("Lemon", true, nil, 0.5, .piece),
                        ("Cucumber", true, nil, 0.5, .piece),
                        ("Olive oil", false, nil, 1, .tbsp),
                    ],
                    steps: [
                        "Slice the chicken and pepper into strips and season them.",
                        "Heat a spoon of olive oil in a frying pan over high heat and sear the chicken for five minutes, turning once.",
                        "Add the pepper strips and cook for three minutes more, until they soften and the chicken is cooked through.",
                        "Warm the rice in the microwave with a splash of water, covered, for two minutes.",
                        "Thin the yogurt with lemon juice and a pinch of salt.",
                        "Top the rice with chicken, peppers and diced cucumber, and drizzle.",
                    ],
                    timers: [2: 5, 3: 3, 4: 2],
                    tip: "Cook the chicken and peppers together in one wide pan.",
                    allergens: [.milk]
                ),
                Recipe(
                    name: "Soy-glazed peppers",
                    summary: "A fast side of bell peppers stir-fried hot and glazed with soy sauce and a little honey, finished with spring "
                        + "onions.",
                    minutes: 7,
                    difficulty: "easy",
                    ingredients: [
                        ("Bell pepper", true, nil, 2, .piece),
                        ("Soy sauce", true, nil, 1, .tbsp),
                        ("Spring onions", true, nil, 2, .piece),
                        ("Honey", false, "Sugar", 1, .tsp),
                        ("Vegetable oil", false, nil, 1, .tbsp),
                    ],
                    steps: [
                        "Slice the pepper and the spring onions.",
                        "Heat a spoon of oil in a wok or frying pan until it shimmers.",
                        "Stir-fry the pepper over high heat for three minutes, until it chars in places but keeps some bite.",
                        "Mix a spoon of soy sauce with a teaspoon of honey, pour it in and toss until the peppers are glossy.",
                        "Stir through the spring onions for the last thirty seconds and serve at once.",
                    ],
                    timers: [3: 3],
                    tip: "Buy pre-sliced peppers.",
                    allergens: [.gluten, .soybeans]
                ),
            ]
        ),
        Fridge(
            ingredients: [
                ("Tofu", "Protein", 0.85), ("Broccoli", "Vegetable", 0.9), ("Carrots", "Vegetable", 0.88), ("Orange juice", "Beverage", 0.74),
                ("Peanut butter", "Condiment", 0.7), ("Garlic", "Vegetable", 0.73), ("Fresh ginger", "Vegetable", 0.66), ("Limes", "Fruit", 0.69),
            ],
            recipes: [
                Recipe(
                    name: "Peanut tofu stir-fry",
                    summary: "Crispy golden tofu and tender broccoli tossed in a quick peanut sauce with garlic, ginger and lime: a filling "
                        + "dinner in twenty minutes.",
                    minutes: 20,
                    difficulty: "medium",
                    ingredients: [
                        ("Tofu", true, nil, 400, .g),
                        ("Broccoli", true, nil, 250, .g),
                        ("Peanut butter", true, nil, 2, .tbsp),
                        ("Garlic", true, nil, 2, .clove),
                        ("Fresh ginger", true, "Ground ginger", 10, .g),
                        ("Limes", true, nil, 1, .piece),
                        ("Soy sauce", false, "Salt and a squeeze of lime", 1, .tbsp),
                    ],
                    steps: [
                        "Press the tofu and cut it into cubes.",
                        "Fry the tofu in a spoon of oil over medium-high heat for about eight minutes, turning until golden.",
                        "Add broccoli florets and a splash of water; cover 3 minutes.",
                        "Whisk two spoons of peanut butter with grated garlic and ginger and the juice of half a lime.",
                        "Stir in the peanut butter loosened with soy sauce and hot water, tossing until everything is coated and glossy.",
                        "Add more lime to taste and serve.",
                    ],
                    timers: [2: 8, 3: 3],
                    tip: "Tear the tofu instead of cubing it: more crisp edges, no knife.",
                    allergens: [.gluten, .peanuts, .soybeans]
                ),
                Recipe(
                    name: "Orange-glazed carrots",
                    summary: "Carrot coins simmered in orange juice with a knob of butter and a little ginger until the juice turns into a "
                        + "glossy, sweet glaze.",
                    minutes: 15,
                    difficulty: "easy",
                    ingredients: [
                        ("Carrots", true, nil, 400, .g),
                        ("Orange juice", true, nil, 150, .ml),
                        ("Fresh ginger", true, "Ground ginger", 5, .g),
                        ("Butter", false, "Olive oil", 15, .g),
                        ("Salt", false, nil, 1, .pinch),
                    ],
                    steps: [
                        "Slice the carrots into coins.",
                        "Put them in a wide pan with enough orange juice to come halfway up, a knob of butter, a pinch of salt and a little "
                            + "grated ginger.",
                        "Bring to a boil, then simmer uncovered for eight to ten minutes, stirring now and then.",
                        "When the carrots are tender and the juice has reduced to a glaze, toss them over high heat until shiny.",
                        "Season with a little more salt to taste and serve warm.",
                    ],
                    timers: [3: 9],
                    tip: "Use baby carrots whole: no peeling or slicing, and they glaze in the same time.",
                    allergens: [.milk]
                ),
                Recipe(
                    name: "Crispy tofu with orange and garlic",
                    summary: "Cubes of tofu fried until crisp, then tossed in a sticky orange, garlic and ginger glaze with a squeeze of "
                        + "lime; good over rice.",
                    minutes: 20,
                    difficulty: "medium",
                    ingredients: [
                        ("Tofu", true, nil, 400, .g),
                        ("Orange juice", true, nil, 200, .ml),
                        ("Garlic", true, nil, 2, .clove),
                        ("Fresh ginger", true, "Ground ginger", 10, .g),
                        ("Limes", true, nil, 0.5, .piece),
                        ("Cornstarch", false, "Potato starch", 1, .tbsp),
                        ("Vegetable oil", false, nil, 2, .tbsp),
                    ],
                    steps: [
                        "Pat the tofu dry, cut it into cubes and toss them in a spoon of cornstarch with a pinch of salt.",
                        "Fry the cubes in two spoons of oil over medium-high heat for eight minutes, turning until crisp on every side.",
                        "Lift the tofu onto a plate and pour off most of the oil.",
                        "Add grated garlic and ginger for thirty seconds, then pour in a glass of orange juice.",
                        "Simmer for three to four minutes until the juice thickens into a syrupy glaze.",
                        "Toss the tofu in the glaze and add lime juice.",
                    ],
                    timers: [2: 8, 5: 4],
                    tip: "Skip pressing: pat the tofu dry with a towel.",
                    allergens: [.soybeans]
                ),
                Recipe(
                    name: "Roasted broccoli and carrots with toasted almonds",
                    summary: "Broccoli florets and carrot sticks roasted hot until charred at the tips, finished with lime, garlic and "
                        + "toasted flaked almonds for crunch.",
                    minutes: 25,
                    difficulty: "easy",
                    ingredients: [
                        ("Broccoli", true, nil, 250, .g),
                        ("Carrots", true, nil, 200, .g),
                        ("Garlic", true, nil, 2, .clove),
                        ("Limes", true, "Lemon", 0.5, .piece),
                        ("Flaked almonds", false, "Toasted sunflower seeds", 20, .g),
                        ("Olive oil", false, nil, 2, .tbsp),
                        ("Salt", false, nil, 1, .pinch),
                    ],
                    steps: [
                        "Heat the oven to 220 degrees and line a large tray with baking paper.",
                        "Toss broccoli florets and carrot sticks with olive oil and salt.",
                        "Spread them out in one layer so they roast rather than steam, and roast for fifteen minutes.",
                        "Add sliced garlic and roast five minutes more.",
                        "Toast the almonds in a dry pan until golden.",
                        "Squeeze over lime and scatter the almonds on top.",
                    ],
                    timers: [3: 15, 4: 5],
                    tip: "Cut everything small: the tray is done ten minutes sooner.",
                    allergens: [.treeNuts]
                ),
            ]
        ),
        Fridge(
            ingredients: [
                ("Pasta", "Grain", 0.82), ("Parmesan", "Dairy", 0.86), ("Zucchini", "Vegetable", 0.83), ("Bacon", "Protein", 0.9),
                ("Cream", "Dairy", 0.77), ("Mustard", "Condiment", 0.65), ("Apples", "Fruit", 0.8), ("Onion", "Vegetable", 0.72),
            ],
            recipes: [
                Recipe(
                    name: "Bacon and zucchini pasta",
                    summary: "Pasta tossed with crisp bacon, zucchini ribbons and parmesan, loosened with a splash of pasta water.",
                    minutes: 20,
                    difficulty: "easy",
                    ingredients: [
                        ("Pasta", true, nil, 200, .g),
                        ("Bacon", true, "Smoked paprika and olive oil", 100, .g),
                        ("Zucchini", true, nil, 1, .piece),
                        ("Parmesan", true, nil, 30, .g),
                        ("Black pepper", false, nil, nil, .toTaste),
                        ("Salt", false, nil, 1, .pinch),
                    ],
                    steps: [
                        "Bring a large pot of salted water to the boil and cook the pasta until just tender.",
                        "While it cooks, chop the bacon and fry it in a dry pan over medium heat until crisp.",
                        "Peel the zucchini into long ribbons with a vegetable peeler.",
                        "Add the ribbons to the bacon and cook for two minutes until just soft.",
                        "Drain the pasta, keeping a mug of the cooking water.",
                        "Toss with pasta, a splash of pasta water and parmesan, adding more water until the sauce coats every piece.",
                        "Season with black pepper and serve with extra parmesan on top.",
                    ],
                    timers: [1: 10, 4: 2],
                    tip: "Use a peeler for the zucchini: ribbons cook in a minute.",
                    allergens: [.gluten, .milk]
                ),
                Recipe(
                    name: "Creamy mustard pasta",
                    summary: "A five-ingredient cream sauce sharpened with mustard and parmesan, made while the pasta boils.",
                    minutes: 15,
                    difficulty: "easy",
                    ingredients: [
                        ("Pasta", true, nil, 200, .g),
                        ("Cream", true, nil, 150, .ml),
                        ("Mustard", true, nil, 1, .tbsp),
                        ("Parmesan", true, nil, 30, .g),
                        ("Onion", true, "Shallot", 0.5, .piece),
                        ("Black pepper", false, nil, nil, .toTaste),
                    ],
                    steps: [
                        "Boil the pasta in plenty of salted water until just tender.",
                        "Meanwhile finely chop half an onion and soften it in a little oil over medium heat for four minutes.",
                        "Warm cream with a spoon of mustard, stirring until smooth, and let it bubble gently for two minutes.",
                        "Stir in a handful of grated parmesan and season with black pepper.",
                        "Drain the pasta, keeping a little of the water, and tip it into the sauce.",
                        "Toss with pasta and parmesan over low heat, loosening with pasta water if the sauce is too thick.",
                    ],
                    timers: [1: 10, 2: 4, 3: 2],
                    tip: "Cook small pasta shapes: they are ready in 6-8 minutes.",
                    allergens: [.gluten, .milk, .mustard]
                ),
                Recipe(
                    name: "Apple and parmesan salad",
                    summary: "Thin, crisp apple slices with shaved parmesan, a little onion and a sharp mustard dressing.",
                    minutes: 5,
                    difficulty: "easy",
                    ingredients: [
                        ("Apples", true, nil, 1, .piece),
                        ("Parmesan", true, nil, 20, .g),
                        ("Mustard", true, nil, 1, .tsp),
                        ("Onion", true, "Spring onion", 0.25, .piece),
                        ("Olive oil", false, "Any neutral oil", 3, .tbsp),
                        ("Lemon juice", false, "Any mild vinegar", 1, .tbsp),
                    ],
                    steps: [
                        "Core the apple and slice it as thinly as you can.",
                        "Slice a few thin rings of onion and soak them in cold water for a minute to soften their bite.",
                        "Whisk a teaspoon of mustard with three spoons of oil, a squeeze of lemon juice and a pinch of salt.",
                        "Arrange the apple on a plate and scatter the drained onion over it.",
                        "Shave parmesan over the top with a vegetable peeler.",
                        "Drizzle with the dressing just before serving so the apple stays crisp.",
                    ],
                    timers: [2: 1],
                    tip: nil,
                    allergens: [.milk, .mustard]
                ),
                Recipe(
                    name: "Bacon, apple and zucchini hash",
                    summary: "Crisp bacon fried with diced apple, onion and zucchini until golden: a sweet and salty one-pan supper.",
                    minutes: 15,
                    difficulty: "easy",
                    ingredients: [
                        ("Bacon", true, nil, 150, .g),
                        ("Apples", true, nil, 1, .piece),
                        ("Zucchini", true, nil, 1, .piece),
                        ("Onion", true, nil, 1, .piece),
                        ("Black pepper", false, nil, nil, .toTaste),
                        ("Fresh thyme", false, "Dried thyme", 1, .tsp),
                    ],
                    steps: [
                        "Cut the bacon into short strips and dice the apple, zucchini and onion into small cubes.",
                        "Fry the bacon in a dry frying pan over medium heat until it renders its fat and turns crisp.",
                        "Add the onion and cook for three minutes until it softens.",
                        "Add the zucchini and apple and spread everything out in an even layer.",
                        "Cook for five minutes without stirring so the underside browns, then turn and brown the other side.",
                        "Season with black pepper and a few thyme leaves and serve hot.",
                    ],
                    timers: [3: 3, 5: 5],
                    tip: "Leave the apple skin on and dice everything small: less prep, and it browns faster.",
                    allergens: []
                ),
            ]
        ),
    ]
}
