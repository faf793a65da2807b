import Foundation
import KiwiDatabase
import KiwiModels
import KiwiTestSupport
import PostgresNIO
import Testing

@testable import KiwiGateway

/// ``PostgresRecipeBox`` against the real PostgreSQL of `make test`, each test on a migrated database of its own.
@Suite("Recipe box (PostgreSQL)")
struct RecipeBoxTests {
    /// Runs `body` with a recipe box on a migrated database of its own.
    func withRecipeBox(_ body: @Sendable (PostgresRecipeBox) async throws -> Void) async throws {
        try await withTemporaryDatabase { configuration in
            try await withClient(configuration) { client in
                _ = try await DatabaseMigrator().migrate(client, logger: testLogger)
                try await body(PostgresRecipeBox(client: client, logger: testLogger, timeout: .seconds(60)))
            }
        }
    }

    /// A copy of ``RecipesRouterTests/omelette`` (or `name`) from a scan of its own.
    func copy(named name: String = "Spinach Omelette", ingredient: String = "eggs") -> SavedRecipe {
        var recipe = RecipesRouterTests.omelette
        recipe.id = UUID()
        recipe.name = name
        recipe.ingredients[0].name = ingredient
        return SavedRecipe(
            id: UUID(),
            scanId: UUID(),
            savedAt: Date(),
            recipe: recipe,
            detectedIngredients: [RecipesRouterTests.eggs],
            note: nil,
            rating: nil
        )
    }

    @Test("a saved recipe reads back exactly as it was answered, and saving it again finds that copy")
    func savedRecipeReadsBack() async throws {
        try await withRecipeBox { box in
            let user = UUID()
            let recipe = copy()
            guard case .saved(let saved) = try await box.save(recipe, for: user, capacity: 10) else { throw RecipeBoxTestFailure() }
            #expect(saved.recipe == recipe.recipe)
            #expect(saved.detectedIngredients == recipe.detectedIngredients)
            #expect(try await box.recipe(saved.id, of: user) == saved)
            var again = recipe
            again.id = UUID()
            #expect(try await box.save(again, for: user, capacity: 10) == .alreadySaved(saved))
            #expect(try await box.recipe(saved.id, of: UUID()) == nil)
        }
    }

    @Test("twenty saves at once into a box with room for five keep exactly five")
    func capacityHoldsUnderConcurrency() async throws {
        try await withRecipeBox { box in
            let user = UUID()
            let results = try await withThrowingTaskGroup(of: RecipeSaving.self) { group in
                for _ in 0..<20 { group.addTask { try await box.save(copy(), for: user, capacity: 5) } }
                return try await group.reduce(into: [RecipeSaving]()) { $0.append($1) }
            }
            #expect(results.filter { if case .saved = $0 { true } else { false } }.count == 5)
            #expect(results.filter { $0 == .full }.count == 15)
            #expect(try await box.recipes(of: user, matching: nil, after: nil, limit: 100).recipes.count == 5)
        }
    }

    @Test("the search matches names and ingredients, ignoring case, and takes %, _ and \\ literally")
    func searchMatchesLiterally() async throws {
        try await withRecipeBox { box in
            let user = UUID()
            for (name, ingredient) in [("Pasta 100% Italian", "spaghetti"), ("Soup", "cream_cheese"), ("Toast", "bread")] {
                _ = try await box.save(copy(named: name, ingredient: ingredient), for: user, capacity: 10)
            }
            let names = { (query: String) in try await box.recipes(of: user, matching: query, after: nil, limit: 10).recipes.map(\.recipe.name) }
            #expect(try await names("100%") == ["Pasta 100% Italian"])
            #expect(try await names("CREAM_") == ["Soup"])
            #expect(try await names("%") == ["Pasta 100% Italian"])
            #expect(try await names("_").isEmpty == false)
            #expect(try await names("\\").isEmpty)
            #expect(try await names("BREAD") == ["Toast"])
        }
    }

    @Test("pages run newest first without skipping or repeating a recipe")
    func pagesCoverEveryRecipeOnce() async throws {
        try await withRecipeBox { box in
            let user = UUID()
            for index in 0..<7 { _ = try await box.save(copy(named: "Recipe \(index)"), for: user, capacity: 10) }
            var seen: [String] = []
            var cursor: PageCursor?
            repeat {
                let page = try await box.recipes(of: user, matching: nil, after: cursor, limit: 3)
                seen += page.recipes.map(\.recipe.name)
                cursor = page.next
            } while cursor != nil
            #expect(seen == (0..<7).reversed().map { "Recipe \($0)" })
        }
    }

    @Test("an update sets, keeps and clears the note and rating; a delete removes one recipe, deleteAll every one of a user")
    func updateAndDelete() async throws {
        try await withRecipeBox { box in
            let (user, other) = (UUID(), UUID())
            guard case .saved(let saved) = try await box.save(copy(), for: user, capacity: 10) else { throw RecipeBoxTestFailure() }
            _ = try await box.save(copy(), for: user, capacity: 10)
            _ = try await box.save(copy(), for: other, capacity: 10)
            let rated = try await box.update(saved.id, of: user, SavedRecipeChanges(note: .set("Great"), rating: .set(4)))
            #expect(rated?.note == "Great" && rated?.rating == 4)
            let cleared = try await box.update(saved.id, of: user, SavedRecipeChanges(note: .clear))
            #expect(cleared?.note == nil && cleared?.rating == 4)
            #expect(try await box.update(saved.id, of: other, SavedRecipeChanges(rating: .set(1))) == nil)
            #expect(try await box.delete(saved.id, of: other) == false)
            #expect(try await box.delete(saved.id, of: user))
            try await box.deleteAll(of: user)
            #expect(try await box.recipes(of: user, matching: nil, after: nil, limit: 10).recipes.isEmpty)
            #expect(try await box.recipes(of: other, matching: nil, after: nil, limit: 10).recipes.count == 1)
        }
    }
}

struct RecipeBoxTestFailure: Error {}
