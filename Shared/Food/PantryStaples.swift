/// What every kitchen is assumed to have: never on a shopping list, never "missing" from a cookable recipe, whether
/// or not the pantry lists it (docs/architecture.md, "The pantry and the shopping list").
public enum PantryStaples {
    /// By ``IngredientKey``: salt, pepper, cooking oils and water.
    public static let keys: Set<String> = [
        "salt", "sea salt", "kosher salt", "table salt", "black pepper", "pepper", "ground black pepper", "salt and pepper", "oil",
        "olive oil", "extra virgin olive oil", "vegetable oil", "sunflower oil", "canola oil", "rapeseed oil", "cooking oil",
        "cooking spray", "water", "cold water", "hot water", "warm water", "ice",
    ]

    public static func contains(key: String) -> Bool {
        keys.contains(key)
    }
}
