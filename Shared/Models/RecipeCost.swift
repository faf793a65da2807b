import Foundation

/// The last price paid for a pantry item, per one of its units, from a receipt (docs/architecture.md, "Receipts in the
/// pantry"): what a recipe's cost is counted from.
public struct PantryPrice: Codable, Hashable, Sendable {
    /// The price of one ``unit``.
    public var amount: Double
    public var unit: QuantityUnit
    /// ISO 4217 (``Currency/codes``).
    public var currency: String

    public init(amount: Double, unit: QuantityUnit, currency: String) {
        self.amount = amount
        self.unit = unit
        self.currency = currency
    }
}

/// What a recipe costs at the pantry's prices (docs/architecture.md, "What a recipe costs"): counted by the server when
/// the recipe is read, for its servings as shown. Never a quote: it is what the pantry's food last cost.
public struct RecipeCost: Codable, Hashable, Sendable {
    /// ISO 4217: the reader's profile's, else the currency most of its priced ingredients were bought in.
    public var currency: String
    /// The whole recipe, rounded to the cent.
    public var total: Double
    /// One serving of ``servings``, rounded to the cent.
    public var perServing: Double
    public var servings: Int
    /// `complete` when every ingredient with an amount was priced; `partial` when ``unpriced`` lists some, which the
    /// totals leave out.
    public var status: CostStatus
    /// The ingredients left out of the totals, in the recipe's order, and why.
    public var unpriced: [UnpricedIngredient]

    public init(currency: String, total: Double, perServing: Double, servings: Int, status: CostStatus, unpriced: [UnpricedIngredient]) {
        self.currency = currency
        self.total = total
        self.perServing = perServing
        self.servings = servings
        self.status = status
        self.unpriced = unpriced
    }
}

/// Whether a cost counts every ingredient.
public enum CostStatus: String, Codable, Hashable, Sendable, CaseIterable {
    case complete
    case partial
}

/// An ingredient a cost leaves out.
public struct UnpricedIngredient: Codable, Hashable, Sendable {
    public var name: String
    public var reason: Reason

    public init(name: String, reason: Reason) {
        self.name = name
        self.reason = reason
    }

    /// Why an ingredient has no price.
    public enum Reason: String, Codable, Hashable, Sendable, CaseIterable {
        /// The pantry holds no price for it (not bought on a receipt added to it).
        case noPrice = "no_price"
        /// Its price is in another currency: Kiwi keeps no exchange rates.
        case otherCurrency = "other_currency"
        /// Its amount does not convert into the unit it was priced by (two cloves against a price per kilogram of a
        /// food with no known clove weight), or it has no amount.
        case noAmount = "no_amount"
    }
}

/// What is left to buy on a shopping list costs at the pantry's prices (docs/architecture.md, "What a recipe costs"):
/// the items not yet ticked off, each at the price its food last cost. An estimate, never a quote.
public struct ShoppingListCost: Codable, Hashable, Sendable {
    /// ISO 4217: the reader's profile's, else the currency most of its priced items were bought in.
    public var currency: String
    /// The items not ticked off, rounded to the cent.
    public var total: Double
    /// `complete` when every item not ticked off was priced; `partial` when ``unpriced`` lists some, which the total
    /// leaves out.
    public var status: CostStatus
    /// The items left out of the total, in the list's order, and why.
    public var unpriced: [UnpricedIngredient]

    public init(currency: String, total: Double, status: CostStatus, unpriced: [UnpricedIngredient]) {
        self.currency = currency
        self.total = total
        self.status = status
        self.unpriced = unpriced
    }
}
