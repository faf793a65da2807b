import Foundation
import KiwiDietGuard
import KiwiModels
import KiwiStrictJSON
import Testing

@testable import KiwiDevelopment
@testable import KiwiLLMStub

/// The stub's canned answers are what a good model writes: valid, and truthful about each recipe's allergens.
@Suite("kiwi-llm-stub canned answers")
struct CannedAnswersTests {
    let dietGuard = DietGuard()

    /// A photo digest that picks canned answer `index`.
    func digest(picking index: Int) -> [UInt8] {
        [UInt8(index), 2] + Array(repeating: 0, count: 30)
    }

    /// The allergen groups the lexicon finds in `recipe`'s ingredients that it does not declare. Ingredients only: the
    /// lexicon reads a dish's name and its steps cautiously ("Pad Thai" may hold shrimp), and the label adds what it finds
    /// there anyway.
    func undeclared(in recipe: some GuardedRecipe, by reader: DietGuard? = nil) -> Set<KitchenProfile.Allergen> {
        Set(recipe.ingredientNames.flatMap((reader ?? dietGuard).groups(in:)).compactMap(KitchenProfile.Allergen.init(rawValue:)))
            .subtracting(recipe.allergens ?? [])
    }

    /// `language`'s canned fridge answer, validated as the worker validates a model's.
    func languageFridge(_ language: AnswerLanguage) throws -> ScanResponse {
        let answer = FridgeAnswers.answer(forDigest: digest(picking: 0), in: language).serialized()
        return try ScanResponseContract.validateModelAnswer(Data(answer.utf8), idSeed: UUID())
    }

    @Test("every language Kiwi answers in besides English has a canned fridge of four recipes")
    func everyLanguageHasAFridge() {
        #expect(Set(FridgeAnswers.fridgesByLanguage.keys) == Set(AnswerLanguage.allCases).subtracting([.en]))
        #expect(FridgeAnswers.fridgesByLanguage.values.allSatisfy { $0.recipes.count == 4 })
    }

    @Test(
        "each language's canned fridge passes the contract and declares every allergen its language's guard finds in its ingredients",
        arguments: AnswerLanguage.allCases.filter { $0 != .en }
    )
    func languageFridgeDeclaresItsAllergens(_ language: AnswerLanguage) throws {
        let response = try languageFridge(language)
        #expect(response.recipes.count == 4)
        for recipe in response.recipes {
            #expect(undeclared(in: recipe, by: .reading(language)).isEmpty, "\(recipe.name)")
        }
    }

    @Test(
        "each language's canned fridge names every ingredient, detected or in a recipe, in plain English too, and declares what those names name",
        arguments: AnswerLanguage.allCases.filter { $0 != .en }
    )
    func languageFridgeNamesEveryIngredientInEnglish(_ language: AnswerLanguage) throws {
        let response = try languageFridge(language)
        #expect(response.ingredients.allSatisfy { $0.canonicalName != nil })
        for recipe in response.recipes {
            #expect(recipe.ingredients.allSatisfy { $0.canonicalName != nil }, "\(recipe.name)")
            let named = Set(recipe.ingredients.compactMap(\.canonicalName).flatMap(dietGuard.groups(in:)).compactMap(KitchenProfile.Allergen.init))
            #expect(named.subtracting(recipe.allergens ?? []).isEmpty, "\(recipe.name)")
        }
    }

    @Test(
        "every canned fridge recipe passes the contract and declares every allergen the lexicon finds in its ingredients",
        arguments: FridgeAnswers.fridges.indices
    )
    func fridgeRecipesDeclareTheirAllergens(_ index: Int) throws {
        let answer = FridgeAnswers.answer(forDigest: digest(picking: index)).serialized()
        let response = try ScanResponseContract.validateModelAnswer(Data(answer.utf8), idSeed: UUID())
        #expect(response.recipes.count == FridgeAnswers.fridges[index].recipes.count)
        for recipe in response.recipes {
            #expect(undeclared(in: recipe).isEmpty, "\(recipe.name)")
        }
    }

    @Test(
        "every canned dish recipe passes the contract and declares every allergen the lexicon finds in its ingredients",
        arguments: DishAnswers.dishes.indices
    )
    func dishRecipesDeclareTheirAllergens(_ index: Int) throws {
        let answer = DishAnswers.answer(forDigest: digest(picking: index)).serialized()
        let recipe = try #require(try DishAnswerContract.validateModelAnswer(Data(answer.utf8), idSeed: UUID()).dish?.recipe)
        #expect(undeclared(in: recipe).isEmpty, "\(recipe.name)")
    }

    @Test("every canned receipt passes the contract and adds up to its printed total", arguments: ReceiptAnswers.receipts.indices)
    func receiptsAddUp(_ index: Int) throws {
        let answer = ReceiptAnswers.answer(forDigest: digest(picking: index)).serialized()
        let receipt = try #require(try ReceiptAnswerContract.validateModelAnswer(Data(answer.utf8), idSeed: UUID()).receipt)
        #expect(receipt.lines.count == ReceiptAnswers.receipts[index].lines.count)
        #expect(receipt.totalMismatch == nil)
    }

    @Test("the supermarket receipt is a real one's size: 30 lines, weight-priced, a multi-buy discount and deposits, some 30 tokens a line")
    func supermarketReceiptHasRealSize() throws {
        let receipt = ReceiptAnswers.receipts[0]
        #expect(receipt.lines.count == 30)
        #expect(receipt.lines.contains { $0.2?.2 == .kg } && receipt.lines.contains { $0.1 == .discount })
        #expect(receipt.lines.filter { $0.1 == .deposit }.map(\.3) == [1.50, -1.00])
        #expect((900...1200).contains(ChatCompletionsController.tokens(in: ReceiptAnswers.answer(forDigest: digest(picking: 0)).serialized())))
    }

    @Test("with receipts chosen as supermarket, every receipt's photos get the 30-line receipt, whichever their hash picks")
    func supermarketReceiptsOnly() {
        let supermarket = ReceiptAnswers.answer(forDigest: digest(picking: 0)).serialized()
        for index in ReceiptAnswers.receipts.indices {
            #expect(ReceiptAnswers.answer(forDigest: digest(picking: index), choosing: .supermarket).serialized() == supermarket)
        }
        #expect(ReceiptAnswers.answer(forDigest: digest(picking: 1)).serialized() != supermarket, "by photo, the hash picks another")
    }

    @Test(
        "every canned fridge answer is the size of a real four-recipe gpt-4o answer with quantities: 1,400 to 1,800 completion tokens",
        arguments: FridgeAnswers.fridges.indices
    )
    func fridgeAnswersHaveRealSize(_ index: Int) {
        let answer = FridgeAnswers.answer(forDigest: digest(picking: index)).serialized()
        #expect((1400...1800).contains(ChatCompletionsController.tokens(in: answer)))
    }

    @Test(
        "every canned fridge recipe is labelled with exactly what it declares: its name, summary and steps name no other allergen",
        arguments: FridgeAnswers.fridges.indices
    )
    func fridgeRecipesNameNoUndeclaredAllergen(_ index: Int) throws {
        let answer = FridgeAnswers.answer(forDigest: digest(picking: index)).serialized()
        for recipe in try ScanResponseContract.validateModelAnswer(Data(answer.utf8), idSeed: UUID()).recipes {
            #expect(dietGuard.allergens(of: recipe) == recipe.allergens?.sorted { $0.rawValue < $1.rawValue }, "\(recipe.name)")
        }
    }

    @Test(
        "the answer dictated for an allergen has it in its second recipe and not in its first",
        arguments: [KitchenProfile.Allergen.eggs, .gluten, .milk, .mustard, .peanuts, .soybeans, .treeNuts]
    )
    func answerWithSecondRecipeContaining(_ allergen: KitchenProfile.Allergen) throws {
        let answer = try #require(FridgeAnswers.answer(withSecondRecipeContaining: allergen))
        let recipes = try ScanResponseContract.validateModelAnswer(Data(answer.utf8), idSeed: UUID()).recipes
        #expect(recipes.count == 4)
        #expect(recipes.map { dietGuard.allergens(of: $0).contains(allergen) }.prefix(2) == [false, true])
    }

    @Test("no answer is dictated for an allergen no canned recipe has")
    func noAnswerForAnAllergenNoRecipeHas() {
        #expect(FridgeAnswers.answer(withSecondRecipeContaining: .fish) == nil)
    }
}
