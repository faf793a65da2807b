import KiwiModels

/// Realistic, varied and deterministic answers: the photo's hash picks a fridge and small variations of the
/// confidences, so the same photo always gets the same answer.
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

    /// A valid model answer (no ids, as the schema asks) for a photo with this SHA-256 digest: a fridge's four recipes,
    /// about 1,300 completion tokens, the size of a real four-recipe gpt-4o answer.
    static func answer(forDigest digest: [UInt8]) -> JSONValue {
        let fridge = fridges[Int(digest[0]) % fridges.count]
        return answer(fridge, recipes: fridge.recipes) { index in Double(Int(digest[(2 + index) % digest.count]) % 9 - 4) / 100 }
    }

    /// A canned answer whose second recipe contains `allergen` and whose first does not, the fridge's other recipes
    /// after them (from the fridge with the fewest recipes containing it): what a test dictates
    /// (``StubBehaviour/answers``) to see the guard hold back a recipe between two it shows. nil when no fridge has a
    /// recipe with it and one without it.
    static func answer(withSecondRecipeContaining allergen: KitchenProfile.Allergen) -> String? {
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
            object([
                "name": .string(ingredient.0), "category": .string(ingredient.1),
                "confidence": .number(JSONNumber(min(0.99, max(0.5, ingredient.2 + wobble(index))))),
            ])
        }
        return object(["ingredients": .array(ingredients), "recipes": .array(recipes.map(json))])
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
                        ("Eggs", true, nil),
                        ("Spinach", true, nil),
                        ("Cheddar cheese", true, nil),
                        ("Milk", true, "A spoon of water"),
                        ("Cherry tomatoes", true, nil),
                        ("Butter", false, "Olive oil"),
                        ("Salt and black pepper", false, nil),
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
                    tip: "Use pre-grated cheese and a small pan so the eggs set faster.",
                    allergens: [.eggs, .milk]
                ),
                Recipe(
                    name: "Blistered tomato scramble",
                    summary: "Soft scrambled eggs over cherry tomatoes blistered in the same pan, with a little garlic and black pepper.",
                    minutes: 8,
                    difficulty: "easy",
                    ingredients: [
                        ("Eggs", true, nil),
                        ("Cherry tomatoes", true, nil),
                        ("Milk", true, nil),
                        ("Garlic", true, "Garlic powder"),
                        ("Olive oil", false, "Butter"),
                        ("Black pepper", false, nil),
                    ],
                    steps: [
                        "Halve the cherry tomatoes and thinly slice one clove of garlic.",
                        "Heat a spoon of olive oil in a frying pan over high heat and lay the tomatoes in cut side down.",
                        "Leave them for two minutes until they blister, then add the garlic for thirty seconds.",
                        "Meanwhile whisk the eggs with a splash of milk, a pinch of salt and plenty of black pepper.",
                        "Turn the heat to low, pour in the eggs and stir slowly, folding the curds as they form.",
                        "Take the pan off the heat while the eggs still look wet: they finish on the plate.",
                    ],
                    tip: "Skip halving: crush whole tomatoes with a fork in the pan.",
                    allergens: [.eggs, .milk]
                ),
                Recipe(
                    name: "Cheesy spinach quesadilla",
                    summary: "A crisp tortilla filled with melted cheddar, spinach and a little red onion, toasted in a dry pan.",
                    minutes: 12,
                    difficulty: "easy",
                    ingredients: [
                        ("Tortilla", false, "Sliced bread, toasted as a sandwich"),
                        ("Cheddar cheese", true, nil),
                        ("Spinach", true, nil),
                        ("Red onion", true, "Spring onion"),
                        ("Cherry tomatoes", true, nil),
                        ("Salt", false, nil),
                    ],
                    steps: [
                        "Grate the cheddar, finely slice a little red onion and chop the spinach.",
                        "Scatter the cheese, spinach and onion over half a tortilla.",
                        "Fold it over and press it down gently.",
                        "Toast in a dry pan over medium heat for two minutes, until golden.",
                        "Flip and toast the other side until the cheese melts.",
                        "Cut into wedges and serve with the cherry tomatoes.",
                    ],
                    tip: "Press with a second pan to toast both sides at once.",
                    allergens: [.gluten, .milk]
                ),
                Recipe(
                    name: "Garlicky spinach with blistered tomatoes",
                    summary: "A warm side of spinach wilted with garlic and lemon, with blistered cherry tomatoes and soft red onion.",
                    minutes: 10,
                    difficulty: "easy",
                    ingredients: [
                        ("Spinach", true, nil),
                        ("Cherry tomatoes", true, nil),
                        ("Garlic", true, "Garlic powder"),
                        ("Lemon", true, "A splash of vinegar"),
                        ("Red onion", true, nil),
                        ("Olive oil", false, "Any neutral oil"),
                        ("Chili flakes", false, "Black pepper"),
                    ],
                    steps: [
                        "Slice the red onion into thin half-moons and the garlic into thin slices.",
                        "Blister the whole tomatoes in two spoons of hot olive oil for three minutes.",
                        "Push them aside, add the onion and cook for two minutes.",
                        "Add the garlic and chili flakes for thirty seconds.",
                        "Add the spinach in handfuls, turning until it wilts.",
                        "Season with salt and squeeze over half a lemon.",
                    ],
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
                        ("Cooked rice", true, nil),
                        ("Chicken breast", true, nil),
                        ("Bell pepper", true, nil),
                        ("Soy sauce", true, nil),
                        ("Spring onions", true, "Chives"),
                        ("Egg", false, "Leave it out or add frozen peas"),
                        ("Vegetable oil", false, nil),
                    ],
                    steps: [
                        "Dice the chicken and pepper small and slice the spring onions.",
                        "Stir-fry the chicken in hot oil for five minutes until cooked through.",
                        "Add the pepper and the white spring onion for two minutes.",
                        "Push everything to one side, crack the egg into the space and scramble it until just set.",
                        "Add the rice, breaking up clumps, and fry until piping hot.",
                        "Add the soy sauce, toss and finish with the green spring onion tops.",
                    ],
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
                        ("Chicken breast", true, nil),
                        ("Greek yogurt", true, nil),
                        ("Lemon", true, nil),
                        ("Cucumber", true, nil),
                        ("Garlic", false, "Garlic powder"),
                        ("Paprika", false, "Chili flakes"),
                        ("Olive oil", false, nil),
                    ],
                    steps: [
                        "Mix half the yogurt with lemon juice, garlic, paprika and salt.",
                        "Cut the chicken into bite-sized cubes and coat them in the marinade for ten minutes.",
                        "Grate some cucumber, squeeze it and stir it into the rest of the yogurt.",
                        "Thread the chicken onto skewers.",
                        "Sear in a hot pan for eight to ten minutes, turning often, until charred.",
                        "Squeeze over the rest of the lemon and serve with the dip.",
                    ],
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
                        ("Cooked rice", true, nil),
                        ("Chicken breast", true, nil),
                        ("Bell pepper", true, nil),
                        ("Greek yogurt", true, nil),
                        ("Lemon", true, nil),
                        ("Cucumber", true, nil),
                        ("Olive oil", false, nil),
                    ],
                    steps: [
                        "Slice the chicken and pepper into strips and season them.",
                        "Heat a spoon of olive oil in a frying pan over high heat and sear the chicken for five minutes, turning once.",
                        "Add the pepper strips and cook for three minutes more, until they soften and the chicken is cooked through.",
                        "Warm the rice in the microwave with a splash of water, covered, for two minutes.",
                        "Thin the yogurt with lemon juice and a pinch of salt.",
                        "Top the rice with chicken, peppers and diced cucumber, and drizzle.",
                    ],
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
                        ("Bell pepper", true, nil),
                        ("Soy sauce", true, nil),
                        ("Spring onions", true, nil),
                        ("Honey", false, "Sugar"),
                        ("Vegetable oil", false, nil),
                    ],
                    steps: [
                        "Slice the pepper and the spring onions.",
                        "Heat a spoon of oil in a wok or frying pan until it shimmers.",
                        "Stir-fry the pepper over high heat for three minutes, until it chars in places but keeps some bite.",
                        "Mix a spoon of soy sauce with a teaspoon of honey, pour it in and toss until the peppers are glossy.",
                        "Stir through the spring onions for the last thirty seconds and serve at once.",
                    ],
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
                        ("Tofu", true, nil),
                        ("Broccoli", true, nil),
                        ("Peanut butter", true, nil),
                        ("Garlic", true, nil),
                        ("Fresh ginger", true, "Ground ginger"),
                        ("Limes", true, nil),
                        ("Soy sauce", false, "Salt and a squeeze of lime"),
                    ],
                    steps: [
                        "Press the tofu and cut it into cubes.",
                        "Fry the tofu in a spoon of oil over medium-high heat for about eight minutes, turning until golden.",
                        "Add broccoli florets and a splash of water; cover 3 minutes.",
                        "Whisk two spoons of peanut butter with grated garlic and ginger and the juice of half a lime.",
                        "Stir in the peanut butter loosened with soy sauce and hot water, tossing until everything is coated and glossy.",
                        "Add more lime to taste and serve.",
                    ],
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
                        ("Carrots", true, nil),
                        ("Orange juice", true, nil),
                        ("Fresh ginger", true, "Ground ginger"),
                        ("Butter", false, "Olive oil"),
                        ("Salt", false, nil),
                    ],
                    steps: [
                        "Slice the carrots into coins.",
                        "Put them in a wide pan with enough orange juice to come halfway up, a knob of butter, a pinch of salt and a little "
                            + "grated ginger.",
                        "Bring to a boil, then simmer uncovered for eight to ten minutes, stirring now and then.",
                        "When the carrots are tender and the juice has reduced to a glaze, toss them over high heat until shiny.",
                        "Season with a little more salt to taste and serve warm.",
                    ],
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
                        ("Tofu", true, nil),
                        ("Orange juice", true, nil),
                        ("Garlic", true, nil),
                        ("Fresh ginger", true, "Ground ginger"),
                        ("Limes", true, nil),
                        ("Cornstarch", false, "Potato starch"),
                        ("Vegetable oil", false, nil),
                    ],
                    steps: [
                        "Pat the tofu dry, cut it into cubes and toss them in a spoon of cornstarch with a pinch of salt.",
                        "Fry the cubes in two spoons of oil over medium-high heat for eight minutes, turning until crisp on every side.",
                        "Lift the tofu onto a plate and pour off most of the oil.",
                        "Add grated garlic and ginger for thirty seconds, then pour in a glass of orange juice.",
                        "Simmer for three to four minutes until the juice thickens into a syrupy glaze.",
                        "Toss the tofu in the glaze and add lime juice.",
                    ],
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
                        ("Broccoli", true, nil),
                        ("Carrots", true, nil),
                        ("Garlic", true, nil),
                        ("Limes", true, "Lemon"),
                        ("Flaked almonds", false, "Toasted sunflower seeds"),
                        ("Olive oil", false, nil),
                        ("Salt", false, nil),
                    ],
                    steps: [
                        "Heat the oven to 220 degrees and line a large tray with baking paper.",
                        "Toss broccoli florets and carrot sticks with olive oil and salt.",
                        "Spread them out in one layer so they roast rather than steam, and roast for fifteen minutes.",
                        "Add sliced garlic and roast five minutes more.",
                        "Toast the almonds in a dry pan until golden.",
                        "Squeeze over lime and scatter the almonds on top.",
                    ],
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
                        ("Pasta", true, nil),
                        ("Bacon", true, "Smoked paprika and olive oil"),
                        ("Zucchini", true, nil),
                        ("Parmesan", true, nil),
                        ("Black pepper", false, nil),
                        ("Salt", false, nil),
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
                    tip: "Use a peeler for the zucchini: ribbons cook in a minute.",
                    allergens: [.gluten, .milk]
                ),
                Recipe(
                    name: "Creamy mustard pasta",
                    summary: "A five-ingredient cream sauce sharpened with mustard and parmesan, made while the pasta boils.",
                    minutes: 15,
                    difficulty: "easy",
                    ingredients: [
                        ("Pasta", true, nil),
                        ("Cream", true, nil),
                        ("Mustard", true, nil),
                        ("Parmesan", true, nil),
                        ("Onion", true, "Shallot"),
                        ("Black pepper", false, nil),
                    ],
                    steps: [
                        "Boil the pasta in plenty of salted water until just tender.",
                        "Meanwhile finely chop half an onion and soften it in a little oil over medium heat for four minutes.",
                        "Warm cream with a spoon of mustard, stirring until smooth, and let it bubble gently for two minutes.",
                        "Stir in a handful of grated parmesan and season with black pepper.",
                        "Drain the pasta, keeping a little of the water, and tip it into the sauce.",
                        "Toss with pasta and parmesan over low heat, loosening with pasta water if the sauce is too thick.",
                    ],
                    tip: "Cook small pasta shapes: they are ready in 6-8 minutes.",
                    allergens: [.gluten, .milk, .mustard]
                ),
                Recipe(
                    name: "Apple and parmesan salad",
                    summary: "Thin, crisp apple slices with shaved parmesan, a little onion and a sharp mustard dressing.",
                    minutes: 5,
                    difficulty: "easy",
                    ingredients: [
                        ("Apples", true, nil),
                        ("Parmesan", true, nil),
                        ("Mustard", true, nil),
                        ("Onion", true, "Spring onion"),
                        ("Olive oil", false, "Any neutral oil"),
                        ("Lemon juice", false, "Any mild vinegar"),
                    ],
                    steps: [
                        "Core the apple and slice it as thinly as you can.",
                        "Slice a few thin rings of onion and soak them in cold water for a minute to soften their bite.",
                        "Whisk a teaspoon of mustard with three spoons of oil, a squeeze of lemon juice and a pinch of salt.",
                        "Arrange the apple on a plate and scatter the drained onion over it.",
                        "Shave parmesan over the top with a vegetable peeler.",
                        "Drizzle with the dressing just before serving so the apple stays crisp.",
                    ],
                    tip: nil,
                    allergens: [.milk, .mustard]
                ),
                Recipe(
                    name: "Bacon, apple and zucchini hash",
                    summary: "Crisp bacon fried with diced apple, onion and zucchini until golden: a sweet and salty one-pan supper.",
                    minutes: 15,
                    difficulty: "easy",
                    ingredients: [
                        ("Bacon", true, nil),
                        ("Apples", true, nil),
                        ("Zucchini", true, nil),
                        ("Onion", true, nil),
                        ("Black pepper", false, nil),
                        ("Fresh thyme", false, "Dried thyme"),
                    ],
                    steps: [
                        "Cut the bacon into short strips and dice the apple, zucchini and onion into small cubes.",
                        "Fry the bacon in a dry frying pan over medium heat until it renders its fat and turns crisp.",
                        "Add the onion and cook for three minutes until it softens.",
                        "Add the zucchini and apple and spread everything out in an even layer.",
                        "Cook for five minutes without stirring so the underside browns, then turn and brown the other side.",
                        "Season with black pepper and a few thyme leaves and serve hot.",
                    ],
                    tip: "Leave the apple skin on and dice everything small: less prep, and it browns faster.",
                    allergens: []
                ),
            ]
        ),
    ]
}
