import Foundation
import KiwiFood
import KiwiModels

/// A shopping list in the forms `GET /v1/shopping-list` answers: grouped for the API's JSON, and as plain text for a
/// share sheet, in the style of ``RecipeExport/plainText(_:)``.
enum ShoppingListExport {
    /// The items grouped by section, sections in the order a shop is walked (`StoreSection.allCases`) and only those
    /// with items; in a section, by name without regard to case, then by id, so that the order never depends on when
    /// an item was added. An item of a section Kiwi does not know is listed under `Other`. What is left to buy is
    /// estimated at `prices` (``PriceList/estimate(of:)``).
    static func list(_ items: [ShoppingListItem], at prices: PriceList) -> ShoppingList {
        let bySection = Dictionary(grouping: items) { StoreSection(category: $0.section) }
        return ShoppingList(
            sections: StoreSection.allCases.compactMap { section in
                bySection[section].map { items in
                    ShoppingListSection(
                        name: section.rawValue,
                        items: items.sorted { ($0.name.lowercased(), $0.id.uuidString) < ($1.name.lowercased(), $1.id.uuidString) }
                    )
                }
            },
            estimatedCost: prices.estimate(of: items)
        )
    }

    /// The list as a short text any messenger shows: a title, then each section's name over its items, one line each,
    /// `[x]` when ticked off, with how much to buy when known ("rice, 390 g"), followed by the recipes that need it, and
    /// at the end what is left to buy is estimated to cost. An empty list says so rather than ending at its title.
    static func plainText(_ list: ShoppingList) -> String {
        var lines = ["Shopping list"]
        if list.sections.isEmpty { lines += ["", "Nothing to buy."] }
        for section in list.sections {
            lines += ["", section.name]
            lines += section.items.map { item in
                let quantity = QuantityText.of(item.quantity, item.unit).map { ", \($0)" } ?? ""
                let recipes = item.forRecipes.isEmpty ? "" : " (\(item.forRecipes.joined(separator: ", ")))"
                return "- [\(item.checked ? "x" : " ")] \(item.name)\(quantity)\(recipes)"
            }
        }
        if let cost = list.estimatedCost {
            let unpriced = cost.unpriced.isEmpty ? "" : ", without \(cost.unpriced.map(\.name).joined(separator: ", "))"
            lines += ["", "Left to buy: about \(String(format: "%.2f", cost.total)) \(cost.currency)\(unpriced)"]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
