import Foundation
import KiwiModels
import Synchronization

@testable import KiwiGateway

/// Saved recipes in memory, kept and found the way ``PostgresSavedRecipeStore`` keeps and finds them.
final class FakeSavedRecipeStore: SavedRecipeStore {
    private struct Kept {
        var userID: UUID
        var recipe: SavedRecipe
        var share: RecipeShare?
    }

    private let kept = Mutex<[Kept]>([])

    /// How many recipes `userID` keeps.
    func count(of userID: UUID) -> Int {
        kept.withLock { $0.filter { $0.userID == userID }.count }
    }

    func save(_ recipe: SavedRecipe, for userID: UUID, capacity: Int) async throws -> RecipeSaving {
        kept.withLock { kept in
            let own = kept.filter { $0.userID == userID }
            if let earlier = own.first(where: { $0.recipe.scanId == recipe.scanId && $0.recipe.recipe.id == recipe.recipe.id }) {
                return .alreadySaved(earlier.recipe)
            }
            guard own.count < capacity else { return .full }
            // The table keeps the recipe and its ingredients, not the copy's own fields: those start empty.
            var saved = recipe
            (saved.note, saved.rating) = (nil, nil)
            kept.append(Kept(userID: userID, recipe: saved, share: nil))
            return .saved(saved)
        }
    }

    func recipes(of userID: UUID, matching query: String?, after cursor: PageCursor?, limit: Int) async throws -> RecipePage {
        let matching = kept.withLock { kept in
            kept.filter { entry in entry.userID == userID && (query.map { $0.isEmpty || entry.recipe.searchText.contains($0.lowercased()) } ?? true) }
                .map(\.recipe)
        }
        let page = PageCursor.page(of: matching, after: cursor, limit: limit, createdAt: \.savedAt, id: \.id)
        return RecipePage(recipes: page.items, next: page.next)
    }

    func recipe(_ id: UUID, of userID: UUID) async throws -> SavedRecipe? {
        kept.withLock { $0.first { $0.userID == userID && $0.recipe.id == id }?.recipe }
    }

    func update(_ id: UUID, of userID: UUID, _ changes: SavedRecipeChanges) async throws -> SavedRecipe? {
        kept.withLock { kept in
            guard let index = kept.firstIndex(where: { $0.userID == userID && $0.recipe.id == id }) else { return nil }
            kept[index].recipe.note = changes.note.applied(to: kept[index].recipe.note)
            kept[index].recipe.rating = changes.rating.applied(to: kept[index].recipe.rating)
            return kept[index].recipe
        }
    }

    func delete(_ id: UUID, of userID: UUID) async throws -> Bool {
        kept.withLock { kept in
            let before = kept.count
            kept.removeAll { $0.userID == userID && $0.recipe.id == id }
            return kept.count < before
        }
    }

    func deleteAll(of userID: UUID) async throws {
        kept.withLock { $0.removeAll { $0.userID == userID } }
    }

    func share(_ id: UUID, of userID: UUID, token: String) async throws -> RecipeShare? {
        kept.withLock { kept in
            guard let index = kept.firstIndex(where: { $0.userID == userID && $0.recipe.id == id }) else { return nil }
            if kept[index].share == nil { kept[index].share = RecipeShare(token: token, sharedAt: Date()) }
            return kept[index].share
        }
    }

    func unshare(_ id: UUID, of userID: UUID) async throws -> Bool {
        kept.withLock { kept in
            guard let index = kept.firstIndex(where: { $0.userID == userID && $0.recipe.id == id }) else { return false }
            kept[index].share = nil
            return true
        }
    }

    func sharedRecipe(_ token: String) async throws -> SharedRecipe? {
        kept.withLock { kept in
            kept.first { $0.share?.token == token }.flatMap { entry in entry.share.map { SharedRecipe(recipe: entry.recipe, share: $0) } }
        }
    }
}
