import Foundation
import KiwiModels

/// What became of a request to keep a recipe.
enum RecipeSaving: Sendable, Hashable {
    /// Kept now.
    case saved(SavedRecipe)
    /// The kitchen had kept this recipe of this scan before: that copy, unchanged.
    case alreadySaved(SavedRecipe)
    /// The kitchen keeps as many recipes as it may already.
    case full
}

/// One page of a kitchen's saved recipes, newest first.
struct RecipePage: Sendable {
    var recipes: [SavedRecipe]
    /// Where the next page starts; nil on the last page.
    var next: PageCursor?
}

/// A saved recipe's public page: its link's token, and when it was shared.
struct RecipeShare: Sendable, Hashable {
    var token: String
    var sharedAt: Date
}

/// A recipe shared under a token, as its public page finds it (the page shows the recipe, never its note, rating or
/// anything of its owner).
struct SharedRecipe: Sendable, Hashable {
    var recipe: SavedRecipe
    var share: RecipeShare
}

/// A member's own fields of a saved recipe, as a `PATCH` changes them.
struct SavedRecipeChanges: Sendable, Hashable {
    var note: FieldChange<String> = .keep
    var rating: FieldChange<Int> = .keep
}

/// The recipes users keep (`/v1/recipes`). Real: ``PostgresSavedRecipeStore`` (the `saved_recipes` table); fake:
/// `FakeSavedRecipeStore`. Every lookup is by the kitchen too: another kitchen's recipe is one that does not exist. A
/// recipe reads with the note and rating of the kitchen's `member` asking, each member's own.
protocol SavedRecipeStore: Sendable {
    /// Keeps `recipe` in the kitchen, unless it kept the same recipe of the same scan before or keeps `capacity`
    /// recipes already. Two saves at once never take a kitchen past the capacity.
    func save(_ recipe: SavedRecipe, for kitchen: Kitchen, capacity: Int) async throws -> RecipeSaving
    /// The kitchen's recipes, newest first, after `cursor`; only those whose name or ingredients contain `query`
    /// (case-insensitively) when there is one.
    func recipes(of kitchen: Kitchen, matching query: String?, after cursor: PageCursor?, limit: Int) async throws -> RecipePage
    func recipe(_ id: UUID, of kitchen: Kitchen) async throws -> SavedRecipe?
    /// Applies `changes` to the member's note and rating; nil when the kitchen has no such recipe.
    func update(_ id: UUID, of kitchen: Kitchen, _ changes: SavedRecipeChanges) async throws -> SavedRecipe?
    /// False when the kitchen had no such recipe.
    func delete(_ id: UUID, of kitchen: Kitchen) async throws -> Bool
    /// Every recipe of the kitchen, with every note, when its owner's account goes.
    func deleteAll(of kitchen: Kitchen) async throws
    /// Shares the recipe under `token`, or keeps the share it has: the share as it is then; nil when the kitchen has
    /// no such recipe.
    func share(_ id: UUID, of kitchen: Kitchen, token: String) async throws -> RecipeShare?
    /// Ends the recipe's share, if it has one: its link no longer opens anything. False when the kitchen has no such
    /// recipe.
    func unshare(_ id: UUID, of kitchen: Kitchen) async throws -> Bool
    /// The recipe shared under `token`, if it still is.
    func sharedRecipe(_ token: String) async throws -> SharedRecipe?
    /// The share of each of the kitchen's recipes that has one, by recipe id.
    func shares(of kitchen: Kitchen) async throws -> [UUID: RecipeShare]
}

extension SavedRecipe {
    /// What `?q=` searches: the recipe's name and its ingredients' names, lower-cased, one per line.
    var searchText: String {
        ([recipe.name] + recipe.ingredients.map(\.name)).joined(separator: "\n").lowercased()
    }
}
