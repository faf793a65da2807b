import Foundation
import KiwiModels
import NIOCore
import Testing

@testable import KiwiScanWorker

/// A planned meal's recipe's Chat Completions request (docs/architecture.md, "Meal plans"): the meal's outline and the
/// items it uses up, one recipe.
@Suite("The Chat Completions request of a planned meal's recipe")
struct MealRecipePromptTests {
    let prompt = ScanPrompt(model: "gpt-4o", detail: .high)
    let outline = MealOutline(name: "Spinach risotto", mainIngredient: "rice", summary: "Creamy.", cookTimeMinutes: 25, usesUp: [])

    func request(items: [OfferedPantryItem]) throws -> [String: Any] {
        let meal = MealRecipeRequest(meal: .dinner, outline: outline, servings: 3, items: items)
        let body = prompt.requestBody(images: [], pantry: PantryQuestion(meal: meal), safetyIdentifier: "user")
        return try #require(try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])
    }

    func recipes(_ request: [String: Any]) throws -> [String: Any] {
        let format = try #require((request["response_format"] as? [String: Any])?["json_schema"] as? [String: Any])
        #expect(format["name"] as? String == "kiwi_meal_recipe")
        let schema = try #require(format["schema"] as? [String: Any])
        return try #require((schema["properties"] as? [String: Any])?["recipes"] as? [String: Any])
    }

    @Test("its instructions are the meal's, and its user message names the outline and servings as JSON, then the items, labelled")
    func outlineAndItems() throws {
        let spinach = OfferedPantryItem(id: UUID(), name: "Spinach", useSoonBy: CalendarDay("2026-12-01"))
        let messages = try #require(try request(items: [spinach])["messages"] as? [[String: Any]])
        #expect(messages.first?["content"] as? String == ScanPrompt.mealSystemPrompt)
        let parts = try #require(messages.last?["content"] as? [[String: Any]])
        let text = try #require(parts.first?["text"] as? String)
        let lines = text.split(separator: "\n").map(String.init)
        let prefix = "The meal (a JSON object): "
        #expect(lines.count == 2 && lines[0].hasPrefix(prefix))
        let meal = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].dropFirst(prefix.count).utf8)) as? [String: Any])
        #expect(meal["name"] as? String == "Spinach risotto" && meal["mainIngredient"] as? String == "rice")
        #expect(meal["servings"] as? Int == 3 && meal["minutes"] as? Int == 25 && meal["meal"] as? String == "dinner")
        #expect(lines[1] == ScanPrompt.offered([spinach]))
    }

    @Test("its schema asks for exactly one recipe, using up the meal's items by their labels")
    func oneRecipeUsingUpItsItems() throws {
        let recipes = try recipes(try request(items: [OfferedPantryItem(id: UUID(), name: "Spinach", useSoonBy: nil)]))
        #expect(recipes["minItems"] as? Int == 1 && recipes["maxItems"] as? Int == 1)
        let usesUp = try #require(((recipes["items"] as? [String: Any])?["properties"] as? [String: Any])?["usesUp"] as? [String: Any])
        #expect((usesUp["items"] as? [String: Any])?["enum"] as? [String] == ["p1"])
    }

    @Test("a meal that uses up nothing says all is to buy, and its recipe has no usesUp: a strict schema may not enumerate nothing")
    func nothingToUseUp() throws {
        let request = try request(items: [])
        let recipes = try recipes(request)
        #expect(((recipes["items"] as? [String: Any])?["properties"] as? [String: Any])?["usesUp"] == nil)
        let messages = try #require(request["messages"] as? [[String: Any]])
        let text = try #require((messages.last?["content"] as? [[String: Any]])?.first?["text"] as? String)
        #expect(text.hasSuffix("It uses up nothing I have: all of it is to buy."))
    }
}
