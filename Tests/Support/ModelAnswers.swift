import KiwiModels
import KiwiStrictJSON

/// Answers a test dictates to the OpenAI stub (`StubBehaviour.answers`): the model's JSON, as it writes it (no ids).
public enum ModelAnswers {
    /// A recipe of a dictated answer: its name and ingredients (each with its substitution, if any), and the allergens
    /// the model declares for it (none unless the test says); for a pantry scan's answer, the labels of the pantry items it
    /// uses up.
    public struct Dish: Sendable {
        public var name: String
        public var ingredients: [(name: String, substitution: String?)]
        public var steps: [String]
        public var allergens: [KitchenProfile.Allergen]
        public var usesUp: [String]?

        public init(
            _ name: String,
            ingredients: [String],
            substitutions: [String: String] = [:],
            steps: [String] = ["Cook everything together."],
            allergens: [KitchenProfile.Allergen] = [],
            usesUp: [String]? = nil
        ) {
            self.name = name
            self.ingredients = ingredients.map { ($0, substitutions[$0]) }
            self.steps = steps
            self.allergens = allergens
            self.usesUp = usesUp
        }
    }

    /// A valid fridge answer with `dishes` as its recipes, and `ingredients` as its detected ingredients; an ingredient
    /// `englishNames` names, detected or in a recipe, has that `canonicalName`, as in an answer in another language.
    public static func fridge(_ dishes: [Dish], ingredients names: [String] = ["basil"], englishNames: [String: String] = [:]) -> String {
        func named(_ name: String, _ members: JSONObject) -> JSONValue {
            var object = JSONObject(["name": .string(name)])
            if let english = englishNames[name] { object["canonicalName"] = .string(english) }
            for (key, value) in members.members { object[key] = value }
            return .object(object)
        }
        let recipes: [JSONValue] = dishes.map { dish in
            var recipe = JSONObject([
                "name": .string(dish.name),
                "summary": .string("A quick dish."),
                "cookTimeMinutes": .number(JSONNumber(15)),
                "difficulty": .string("easy"),
                "ingredients": .array(
                    dish.ingredients.map { ingredient in
                        named(
                            ingredient.name,
                            JSONObject(["isDetected": .bool(true), "substitution": ingredient.substitution.map(JSONValue.string) ?? .null])
                        )
                    }
                ),
                "steps": .array(dish.steps.map(JSONValue.string)),
                "makeItFasterTip": .null,
                "allergens": .array(dish.allergens.map { .string($0.rawValue) }),
            ])
            recipe["usesUp"] = dish.usesUp.map { labels in .array(labels.map(JSONValue.string)) }
            return .object(recipe)
        }
        let ingredients: [JSONValue] = names.map { name in
            named(name, JSONObject(["category": .string("Vegetable"), "confidence": .number(JSONNumber(0.9))]))
        }
        return JSONValue.object(JSONObject(["ingredients": .array(ingredients), "recipes": .array(recipes)])).serialized()
    }
}
