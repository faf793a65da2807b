import KiwiStrictJSON

/// The stub's answer to a Kiwi plan (a schema whose meals have a `slot`): a canned week of meals, one per slot in the
/// order the schema lists them, its main ingredient never the same two days running, each meal using up one offered
/// item in turn while they last, the first offered (the soonest to use) first, as a model told to use those first would.
enum PlanAnswers {
    /// Meals that suit any time of day, each on a different main ingredient, free of the EU-14 allergens but for
    /// eggs (the omelette) and fish (the salmon).
    static let meals: [(name: String, mainIngredient: String, summary: String, minutes: Int)] = [
        ("Lemon chicken traybake", "chicken thighs", "Chicken roasted with lemon and whatever vegetables need using.", 35),
        ("Mushroom risotto", "rice", "A creamy stirred rice with mushrooms and herbs.", 30),
        ("Spinach omelette", "eggs", "A quick folded omelette with wilted spinach.", 10),
        ("Chickpea curry", "chickpeas", "Chickpeas simmered in a tomato and spice sauce.", 25),
        ("Salmon with greens", "salmon", "Pan-fried salmon on buttered seasonal greens.", 20),
        ("Vegetable pasta", "pasta", "Pasta tossed with garlic, olive oil and vegetables.", 20),
        ("Black bean tacos", "black beans", "Spiced beans in warm tortillas with salsa.", 15),
    ]

    static func answer(slots: [String], usingUp labels: [String]) -> JSONValue {
        .object(
            JSONObject([
                "meals": .array(
                    slots.enumerated().map { index, slot in
                        let meal = meals[index % meals.count]
                        var object = JSONObject([
                            "slot": .string(slot),
                            "name": .string(meal.name),
                            "mainIngredient": .string(meal.mainIngredient),
                            "summary": .string(meal.summary),
                            "cookTimeMinutes": .number(JSONNumber(meal.minutes)),
                        ])
                        if !labels.isEmpty { object["usesUp"] = .array(index < labels.count ? [.string(labels[index])] : []) }
                        return .object(object)
                    }
                )
            ])
        )
    }
}
