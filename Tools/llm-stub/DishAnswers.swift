import KiwiDevelopment
import KiwiModels
import KiwiStrictJSON

/// Deterministic dish answers (`kiwi_dish` requests): the photos' hash picks the dish, so the same photos always get
/// the same answer.
enum DishAnswers {
    struct Dish {
        var name: String
        var cuisine: String
        var confidence: Double
        var summary: String
        var minutes: Int
        var difficulty: String
        var servings: Int
        /// Name, quantity as a cook reads it, and the same as an amount and a unit.
        var ingredients: [(String, String, Double?, QuantityUnit?)]
        var steps: [String]
        /// The minutes a step waits (simmering, baking, resting), by the step's number from 1.
        var timers: [Int: Int]
        var tip: String?
        /// Declared truthfully, as the prompt asks (fish sauce brings fish).
        var allergens: [KitchenProfile.Allergen]
    }

    /// A valid model answer (no ids, as the schema asks) for photos with this SHA-256 digest.
    static func answer(forDigest digest: [UInt8]) -> JSONValue {
        object(["dish": json(dishes[Int(digest[0]) % dishes.count])])
    }

    /// The answer for a photo that shows no dish.
    static let noDish = object(["dish": .null])

    /// JSON that breaks the contract in two places: too few steps and a difficulty outside the enum.
    static func offSchema(forDigest digest: [UInt8]) -> JSONValue {
        var dish = dishes[Int(digest[0]) % dishes.count]
        dish.steps = Array(dish.steps.prefix(2))
        dish.difficulty = "extreme"
        return object(["dish": json(dish)])
    }

    private static func json(_ dish: Dish) -> JSONValue {
        object([
            "name": .string(dish.name), "cuisine": .string(dish.cuisine), "confidence": .number(JSONNumber(dish.confidence)),
            "recipe": object([
                "name": .string(dish.name), "summary": .string(dish.summary), "cookTimeMinutes": .number(JSONNumber(dish.minutes)),
                "difficulty": .string(dish.difficulty), "servings": .number(JSONNumber(dish.servings)),
                "ingredients": .array(
                    dish.ingredients.map { name, quantity, amount, unit in
                        object([
                            "name": .string(name), "quantity": .string(quantity), "amount": FridgeAnswers.quantity(amount),
                            "unit": unit.map { .string($0.rawValue) } ?? .null,
                        ])
                    }
                ),
                "steps": .array(dish.steps.map(JSONValue.string)), "makeItFasterTip": dish.tip.map(JSONValue.string) ?? .null,
                "allergens": .array(dish.allergens.map { .string($0.rawValue) }),
                "stepDetails": FridgeAnswers.stepDetails(steps: dish.steps.count, timers: dish.timers),
            ]),
        ])
    }

    private static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(JSONObject(pairs))
    }

    static let dishes: [Dish] = [
        Dish(
            name: "Shakshuka",
            cuisine: "Middle Eastern",
            confidence: 0.91,
            summary: "Eggs poached in a spiced tomato and pepper sauce.",
            minutes: 30,
            difficulty: "easy",
            servings: 2,
            ingredients: [
                ("olive oil", "2 tbsp", 2, .tbsp), ("onion", "1, sliced", 1, .piece), ("red pepper", "1, sliced", 1, .piece),
                ("garlic", "2 cloves", 2, .clove), ("cumin", "1 tsp", 1, .tsp), ("smoked paprika", "1 tsp", 1, .tsp),
                ("chopped tomatoes", "400 g tin", 1, .can), ("eggs", "4", 4, .piece), ("parsley", "½ bunch", 0.5, .bunch),
                ("salt", "a pinch", 1, .pinch),
            ],
            steps: [
                "Warm the oil in a wide pan over medium heat.", "Soften the onion and pepper for 8 minutes.",
                "Add the garlic, cumin and paprika and stir for a minute.", "Pour in the tomatoes and simmer for 10 minutes until thick.",
                "Make four hollows, crack an egg into each, cover and cook for 6 minutes.", "Scatter the parsley and serve from the pan.",
            ],
            timers: [2: 8, 3: 1, 4: 10, 5: 6],
            tip: "Use a jar of good tomato sauce and skip the simmering.",
            allergens: [.eggs]
        ),
        Dish(
            name: "Pad Thai",
            cuisine: "Thai",
            confidence: 0.86,
            summary: "Stir-fried rice noodles with tamarind, egg, tofu and peanuts.",
            minutes: 25,
            difficulty: "medium",
            servings: 2,
            ingredients: [
                ("rice noodles", "200 g", 200, .g), ("firm tofu", "150 g", 150, .g), ("eggs", "2", 2, .piece),
                ("tamarind paste", "2 tbsp", 2, .tbsp), ("fish sauce", "2 tbsp", 2, .tbsp), ("brown sugar", "1 tbsp", 1, .tbsp),
                ("bean sprouts", "100 g", 100, .g), ("spring onions", "3", 3, .piece), ("roasted peanuts", "40 g", 40, .g),
                ("lime", "1", 1, .piece),
            ],
            steps: [
                "Soak the rice noodles in hot water for 8 minutes and drain.", "Whisk the tamarind, fish sauce and sugar together.",
                "Fry the tofu in a hot wok until golden.", "Push it aside, scramble the eggs, then add the noodles and the sauce.",
                "Toss in the sprouts and spring onions for a minute.", "Serve with the peanuts and lime wedges.",
            ],
            timers: [1: 8, 5: 1],
            tip: "Buy pre-cooked noodles and fried tofu.",
            allergens: [.eggs, .fish, .peanuts, .soybeans]
        ),
        Dish(
            name: "Margherita pizza",
            cuisine: "Italian",
            confidence: 0.94,
            summary: "A thin crust with tomato, mozzarella and basil.",
            minutes: 40,
            difficulty: "medium",
            servings: 2,
            ingredients: [
                ("pizza dough", "300 g", 300, .g), ("passata", "100 ml", 100, .ml), ("mozzarella", "125 g", 125, .g),
                ("basil", "6 leaves", 6, .piece), ("olive oil", "1 tbsp", 1, .tbsp), ("salt", "a pinch", 1, .pinch),
            ],
            steps: [
                "Heat the oven as hot as it goes with a tray inside.", "Stretch the dough thin on a floured sheet of baking paper.",
                "Spread the passata, season and tear over the mozzarella.", "Slide it onto the hot tray and bake for 8 to 10 minutes.",
                "Finish with basil and a drizzle of oil.",
            ],
            timers: [1: 30, 4: 9],
            tip: "Use a ready-made base.",
            allergens: [.gluten, .milk]
        ),
    ]
}
