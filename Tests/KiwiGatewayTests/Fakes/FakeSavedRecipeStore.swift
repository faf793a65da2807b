import Foundation
import KiwiModels
import Synchronization

@testable import KiwiGateway

/// Saved recipes in memory, kept and found the way ``PostgresSavedRecipeStore`` keeps and finds them: one copy per
/// kitchen, with each member's note and rating apart.
final class FakeSavedRecipeStore: SavedRecipeStore {
    private struct Note: Hashable {
        var note: String?
        var rating: Int?
    }

    private struct Kept {
        var kitchenID: UUID
        /// The recipe without a note or rating: those are each member's, in `notes`.
        var recipe: SavedRecipe
        var share: RecipeShare?
        var notes: [UUID: Note] = [:]

        /// The recipe as `member` reads it.
        func read(by member: UUID) -> SavedRecipe {
            var read = recipe
            (read.note, read.rating) = (notes[member]?.note, notes[member]?.rating)
            return read
        }
    }

    private let kept = Mutex<[Kept]>([])

    /// How many recipes kitchen `kitchenID` keeps.
    func count(of kitchenID: UUID) -> Int {
        kept.withLock { $0.filter { $0.kitchenID == kitchenID }.count }
    }

    func save(_ recipe: SavedRecipe, for kitchen: Kitchen, capacity: Int) async throws -> RecipeSaving {
        kept.withLock { kept in
            let own = kept.filter { $0.kitchenID == kitchen.id }
            if let earlier = own.first(where: { $0.recipe.scanId == recipe.scanId && $0.recipe.recipe.id == recipe.recipe.id }) {
                return .alreadySaved(earlier.read(by: kitchen.member))
            }
            guard own.count < capacity else { return .full }
            var saved = recipe
            (saved.note, saved.rating) = (nil, nil)
            kept.append(Kept(kitchenID: kitchen.id, recipe: saved))
            return .saved(saved)
        }
    }

    func recipes(of kitchen: Kitchen, matching query: String?, after cursor: PageCursor?, limit: Int) async throws -> RecipePage {
        let matching = kept.withLock { kept in
            kept.filter { entry in
                entry.kitchenID == kitchen.id && (query.map { $0.isEmpty || entry.recipe.searchText.contains($0.lowercased()) } ?? true)
            }
            .map { $0.read(by: kitchen.member) }
        }
        let page = PageCursor.page(of: matching, after: cursor, limit: limit, createdAt: \.savedAt, id: \.id)
        return RecipePage(recipes: page.items, next: page.next)
    }

    func recipe(_ id: UUID, of kitchen: Kitchen) async throws -> SavedRecipe? {
        kept.withLock { $0.first { $0.kitchenID == kitchen.id && $0.recipe.id == id }?.read(by: kitchen.member) }
    }

    func update(_ id: UUID, of kitchen: Kitchen, _ changes: SavedRecipeChanges) async throws -> SavedRecipe? {
        kept.withLock { kept in
            guard let index = kept.firstIndex(where: { $0.kitchenID == kitchen.id && $0.recipe.id == id }) else { return nil }
            let old = kept[index].notes[kitchen.member] ?? Note()
            kept[index].notes[kitchen.member] = Note(note: changes.note.applied(to: old.note), rating: changes.rating.applied(to: old.rating))
            return kept[index].read(by: kitchen.member)
        }
    }

    func delete(_ id: UUID, of kitchen: Kitchen) async throws -> Bool {
        kept.withLock { kept in
            let before = kept.count
            kept.removeAll { $0.kitchenID == kitchen.id && $0.recipe.id == id }
            return kept.count < before
        }
    }

    func deleteAll(of kitchen: Kitchen) async throws {
        empty(kitchen.id)
    }

    func share(_ id: UUID, of kitchen: Kitchen, token: String) async throws -> RecipeShare? {
        kept.withLock { kept in
            guard let index = kept.firstIndex(where: { $0.kitchenID == kitchen.id && $0.recipe.id == id }) else { return nil }
            if kept[index].share == nil { kept[index].share = RecipeShare(token: token, sharedAt: Date()) }
            return kept[index].share
        }
    }

    func shares(of kitchen: Kitchen) async throws -> [UUID: RecipeShare] {
        kept.withLock { kept in
            Dictionary(
                uniqueKeysWithValues: kept.filter { $0.kitchenID == kitchen.id }.compactMap { entry in entry.share.map { (entry.recipe.id, $0) } }
            )
        }
    }

    func unshare(_ id: UUID, of kitchen: Kitchen) async throws -> Bool {
        kept.withLock { kept in
            guard let index = kept.firstIndex(where: { $0.kitchenID == kitchen.id && $0.recipe.id == id }) else { return false }
            kept[index].share = nil
            return true
        }
    }

    func sharedRecipe(_ token: String) async throws -> SharedRecipe? {
        kept.withLock { kept in
            kept.first { $0.share?.token == token }.flatMap { entry in entry.share.map { SharedRecipe(recipe: entry.recipe, share: $0) } }
        }
    }

    /// Forgets every note and rating of `userID`.
    func forgetNotes(of userID: UUID) {
        kept.withLock { kept in for index in kept.indices { kept[index].notes[userID] = nil } }
    }
}

extension FakeSavedRecipeStore: FakeKitchenPart {
    func counts(of target: UUID, and source: UUID) -> (target: Int, source: Int, merged: Int) {
        kept.withLock { kept in
            let kept = kept
            let keys = { (kitchen: UUID) in Set(kept.filter { $0.kitchenID == kitchen }.map { [$0.recipe.scanId, $0.recipe.recipe.id] }) }
            return (keys(target).count, keys(source).count, keys(target).union(keys(source)).count)
        }
    }

    func merge(_ source: UUID, into target: UUID) {
        kept.withLock { kept in
            for entry in kept where entry.kitchenID == source {
                if let index = kept.firstIndex(where: {
                    $0.kitchenID == target && $0.recipe.scanId == entry.recipe.scanId && $0.recipe.recipe.id == entry.recipe.recipe.id
                }) {
                    kept[index].notes.merge(entry.notes) { targets, _ in targets }
                } else {
                    var moved = entry
                    moved.kitchenID = target
                    kept.append(moved)
                }
            }
            kept.removeAll { $0.kitchenID == source }
        }
    }

    func empty(_ kitchenID: UUID) {
        kept.withLock { $0.removeAll { $0.kitchenID == kitchenID } }
    }
}
