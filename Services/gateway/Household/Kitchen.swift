import Foundation

/// Where a request's pantry, shopping list and recipe box are, and who is asking. Members of a household share its
/// kitchen; a person in none has a kitchen of their own. Resolved once per request (``HouseholdStore/kitchen(of:)``).
struct Kitchen: Sendable, Hashable {
    /// The household's id, or the person's own user id while they are in none (the tables' `kitchen_id`).
    var id: UUID
    /// The person asking: a saved recipe's note and rating are each member's own.
    var member: UUID

    /// The kitchen of `userID` while they are in no household.
    static func own(_ userID: UUID) -> Kitchen { Kitchen(id: userID, member: userID) }
}

/// How much one kitchen may hold: a merge on joining a household must fit in it.
struct KitchenLimits: Sendable, Hashable {
    var pantry: Int
    var shoppingList: Int
    var recipeBox: Int

    static let standard = KitchenLimits(
        pantry: PantryController.capacity,
        shoppingList: ShoppingListController.capacity,
        recipeBox: RecipesController.capacity
    )
    func limit(of part: KitchenOverflow.Part) -> Int {
        switch part {
        case .pantry: pantry
        case .shoppingList: shoppingList
        case .recipeBox: recipeBox
        }
    }

    /// No limit: for moving into a kitchen that is empty.
    static let unbounded = KitchenLimits(pantry: .max, shoppingList: .max, recipeBox: .max)
}

/// Why two kitchens cannot become one: the part that would hold too much, with the counts a person needs to decide
/// what to remove.
struct KitchenOverflow: Sendable, Hashable {
    enum Part: String, Sendable, CaseIterable {
        case pantry = "pantry"
        case shoppingList = "shopping list"
        case recipeBox = "recipe box"
    }

    var part: Part
    /// What the household's and the joiner's hold now.
    var household: Int
    var yours: Int
    /// What the merged part would hold, each duplicate once.
    var merged: Int
    var limit: Int
}
