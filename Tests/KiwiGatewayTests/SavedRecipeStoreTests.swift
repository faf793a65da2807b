import Foundation
import KiwiModels
import Testing

@testable import KiwiGateway

/// The recipe box, each case against ``FakeSavedRecipeStore`` and against ``PostgresSavedRecipeStore`` on a migrated database of
/// its own.
@Suite("Recipe box, fake and PostgreSQL")
struct SavedRecipeStoreTests {
    /// The box of each kind.
    static let boxes = PortImplementations<any SavedRecipeStore>(
        fake: { FakeSavedRecipeStore() },
        postgres: { PostgresSavedRecipeStore(client: $0, logger: testLogger, timeout: .seconds(60)) }
    )

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

    @Test("a saved recipe reads back exactly as it was answered, and saving it again finds that copy", arguments: StoreKind.allCases)
    func savedRecipeReadsBack(_ kind: StoreKind) async throws {
        try await Self.boxes.with(kind) { box in
            let user = Kitchen.own(UUID())
            let recipe = copy()
            guard case .saved(let saved) = try await box.save(recipe, for: user, capacity: 10) else { throw RecipeBoxTestFailure() }
            #expect(saved.recipe == recipe.recipe)
            #expect(saved.detectedIngredients == recipe.detectedIngredients)
            #expect(try await box.recipe(saved.id, of: user) == saved)
            var again = recipe
            again.id = UUID()
            #expect(try await box.save(again, for: user, capacity: 10) == .alreadySaved(saved))
            #expect(try await box.recipe(saved.id, of: Kitchen.own(UUID())) == nil)
        }
    }

    @Test("a saved recipe starts without a note or rating, whatever the copy carried", arguments: StoreKind.allCases)
    func savedRecipeStartsUnrated(_ kind: StoreKind) async throws {
        try await Self.boxes.with(kind) { box in
            var recipe = copy()
            (recipe.note, recipe.rating) = ("Great", 5)
            guard case .saved(let saved) = try await box.save(recipe, for: Kitchen.own(UUID()), capacity: 10) else { throw RecipeBoxTestFailure() }
            #expect(saved.note == nil && saved.rating == nil)
        }
    }

    @Test("twenty saves at once into a box with room for five keep exactly five", arguments: StoreKind.allCases)
    func capacityHoldsUnderConcurrency(_ kind: StoreKind) async throws {
        try await Self.boxes.with(kind) { box in
            let user = Kitchen.own(UUID())
            let results = try await withThrowingTaskGroup(of: RecipeSaving.self) { group in
                for _ in 0..<20 { group.addTask { try await box.save(copy(), for: user, capacity: 5) } }
                return try await group.reduce(into: [RecipeSaving]()) { $0.append($1) }
            }
            #expect(results.filter { if case .saved = $0 { true } else { false } }.count == 5)
            #expect(results.filter { $0 == .full }.count == 15)
            #expect(try await box.recipes(of: user, matching: nil, after: nil, limit: 100).recipes.count == 5)
        }
    }

    @Test("the search matches names and ingredients, ignoring case, and takes %, _ and \\ literally", arguments: StoreKind.allCases)
    func searchMatchesLiterally(_ kind: StoreKind) async throws {
        try await Self.boxes.with(kind) { box in
            let user = Kitchen.own(UUID())
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

    @Test("pages run newest first without skipping or repeating a recipe", arguments: StoreKind.allCases)
    func pagesCoverEveryRecipeOnce(_ kind: StoreKind) async throws {
        try await Self.boxes.with(kind) { box in
            let user = Kitchen.own(UUID())
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

    @Test(
        "an update sets, keeps and clears the note and rating; a delete removes one recipe, deleteAll every one of a user",
        arguments: StoreKind.allCases
    )
    func updateAndDelete(_ kind: StoreKind) async throws {
        try await Self.boxes.with(kind) { box in
            let (user, other) = (Kitchen.own(UUID()), Kitchen.own(UUID()))
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

    @Test("an empty search matches every recipe", arguments: StoreKind.allCases)
    func emptySearchMatchesAll(_ kind: StoreKind) async throws {
        try await Self.boxes.with(kind) { box in
            let user = Kitchen.own(UUID())
            for name in ["Soup", "Toast"] { _ = try await box.save(copy(named: name), for: user, capacity: 10) }
            #expect(try await box.recipes(of: user, matching: "", after: nil, limit: 10).recipes.count == 2)
        }
    }

    @Test("the page after a recipe deleted since goes on after where that recipe was", arguments: StoreKind.allCases)
    func pageAfterDeletedRecipe(_ kind: StoreKind) async throws {
        try await Self.boxes.with(kind) { box in
            let user = Kitchen.own(UUID())
            for index in 0..<4 { _ = try await box.save(copy(named: "Recipe \(index)"), for: user, capacity: 10) }
            let first = try await box.recipes(of: user, matching: nil, after: nil, limit: 2)
            #expect(try await box.delete(try #require(first.recipes.last).id, of: user))
            let second = try await box.recipes(of: user, matching: nil, after: first.next, limit: 2)
            #expect(second.recipes.map(\.recipe.name) == ["Recipe 1", "Recipe 0"])
        }
    }

    @Test("a share keeps its first link, opens the recipe until unshared, and is the owner's alone to make or end", arguments: StoreKind.allCases)
    func shareAndUnshare(_ kind: StoreKind) async throws {
        try await Self.boxes.with(kind) { box in
            let (user, other) = (Kitchen.own(UUID()), Kitchen.own(UUID()))
            guard case .saved(let saved) = try await box.save(copy(), for: user, capacity: 10) else { throw RecipeBoxTestFailure() }
            #expect(try await box.share(saved.id, of: other, token: "another-users-share-token") == nil)
            let shared = try #require(try await box.share(saved.id, of: user, token: "first-share-token-abcdef"))
            #expect(shared.token == "first-share-token-abcdef")
            #expect(try await box.share(saved.id, of: user, token: "second-share-token-abcdef") == shared)
            #expect(try await box.sharedRecipe("first-share-token-abcdef") == SharedRecipe(recipe: saved, share: shared))
            #expect(try await box.sharedRecipe("second-share-token-abcdef") == nil)
            #expect(try await box.unshare(saved.id, of: other) == false)
            #expect(try await box.sharedRecipe("first-share-token-abcdef") != nil)
            #expect(try await box.unshare(saved.id, of: user))
            #expect(try await box.sharedRecipe("first-share-token-abcdef") == nil)
        }
    }

    @Test("a kitchen's shares are listed by recipe, and no other kitchen's or recipe without one", arguments: StoreKind.allCases)
    func sharesListed(_ kind: StoreKind) async throws {
        try await Self.boxes.with(kind) { box in
            let (user, other) = (Kitchen.own(UUID()), Kitchen.own(UUID()))
            guard case .saved(let shared) = try await box.save(copy(named: "Shared"), for: user, capacity: 10),
                case .saved(let kept) = try await box.save(copy(named: "Kept"), for: user, capacity: 10),
                case .saved(let others) = try await box.save(copy(named: "Other's"), for: other, capacity: 10)
            else { throw RecipeBoxTestFailure() }
            let share = try #require(try await box.share(shared.id, of: user, token: "listed-share-token-abcdef"))
            _ = try await box.share(others.id, of: other, token: "others-share-token-abcdef")
            #expect(try await box.shares(of: user) == [shared.id: share])
            #expect(try await box.shares(of: user)[kept.id] == nil)
        }
    }
}

struct RecipeBoxTestFailure: Error {}
