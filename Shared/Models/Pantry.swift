import Foundation

/// One thing the person has at home (`/v1/pantry`): what a scan confirmed or what they typed, kept across scans so
/// that shopping lists and "what can I cook now" know it.
public struct PantryItem: Codable, Hashable, Sendable, Identifiable {
    public var id: UUID
    /// The name as first added ("Cherry tomatoes").
    public var name: String
    /// The normalised name that makes "Tomatoes" and "tomato" one item (docs/architecture.md, "The pantry and the
    /// shopping list"); unique in a pantry.
    public var key: String
    /// The store section, one of the scan's ingredient categories (`Dairy`, `Protein`, …, `Other`).
    public var category: String
    /// How much there is, when the person said; `unit` says of what.
    public var quantity: Double?
    public var unit: QuantityUnit?
    /// The date printed on the pack, when the person gave one.
    public var bestBefore: CalendarDay?
    /// When to use it by: `bestBefore`, or for fresh food without one an estimate from typical shelf lives
    /// (`useSoonEstimated`); `null` for food that keeps.
    public var useSoonBy: CalendarDay?
    public var useSoonEstimated: Bool
    public var source: PantrySource
    /// The scan that added it, for `source` `scan`.
    public var scanId: UUID?
    public var addedAt: Date
    /// When a scan or the person last added it again.
    public var lastSeenAt: Date
    /// The last price paid for it, from a receipt added to the pantry; absent when none is known.
    public var price: PantryPrice?

    public init(
        id: UUID,
        name: String,
        key: String,
        category: String,
        quantity: Double? = nil,
        unit: QuantityUnit? = nil,
        bestBefore: CalendarDay? = nil,
        useSoonBy: CalendarDay? = nil,
        useSoonEstimated: Bool = false,
        source: PantrySource,
        scanId: UUID? = nil,
        addedAt: Date,
        lastSeenAt: Date,
        price: PantryPrice? = nil
    ) {
        self.id = id
        self.name = name
        self.key = key
        self.category = category
        self.quantity = quantity
        self.unit = unit
        self.bestBefore = bestBefore
        self.useSoonBy = useSoonBy
        self.useSoonEstimated = useSoonEstimated
        self.source = source
        self.scanId = scanId
        self.addedAt = addedAt
        self.lastSeenAt = lastSeenAt
        self.price = price
    }

    /// Writes absent values as explicit `null`s: the contract lists every field; `price`, added later, is left out
    /// when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(key, forKey: .key)
        try container.encode(category, forKey: .category)
        try container.encode(quantity, forKey: .quantity)
        try container.encode(unit, forKey: .unit)
        try container.encode(bestBefore, forKey: .bestBefore)
        try container.encode(useSoonBy, forKey: .useSoonBy)
        try container.encode(useSoonEstimated, forKey: .useSoonEstimated)
        try container.encode(source, forKey: .source)
        try container.encode(scanId, forKey: .scanId)
        try container.encode(addedAt, forKey: .addedAt)
        try container.encode(lastSeenAt, forKey: .lastSeenAt)
        try container.encodeIfPresent(price, forKey: .price)
    }
}

/// Where a pantry item came from.
public enum PantrySource: String, Codable, Hashable, Sendable {
    /// A scan's (or a refinement's) confirmed ingredients.
    case scan
    /// Typed by the person, or moved from the shopping list.
    case manual
}

/// The units a quantity may be in: kitchen measures and the ways food is sold.
public enum QuantityUnit: String, Codable, Hashable, Sendable, CaseIterable {
    case g, kg, ml, l, tsp, tbsp, cup, piece, clove, slice, pinch, can, pack, bunch
    /// US weights and volumes, which a recipe shown in US units uses (`units=us`).
    case oz, lb
    case fluidOunce = "fl oz"
    /// An amount the cook judges (salt, pepper): a recipe ingredient's `amount` is then `null`.
    case toTaste = "to taste"

    /// The units a pantry item may be in: the ways food is bought and kept, as pantries have always had them. The
    /// recipe-only units (the US measures of a recipe shown in US units, `to taste`) are refused there, so a pantry
    /// never holds a unit an older client does not know, nor a quantity "to taste".
    public static let pantryUnits: [QuantityUnit] = [.g, .kg, .ml, .l, .tsp, .tbsp, .cup, .piece, .clove, .slice, .pinch, .can, .pack, .bunch]
}

/// A page of `GET /v1/pantry`: soonest use-soon date first, food that keeps last.
public struct PantryList: Codable, Hashable, Sendable {
    public var items: [PantryItem]
    /// Pass it as `cursor` for the next page; absent on the last page.
    public var nextCursor: String?

    public init(items: [PantryItem], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

/// The pantry items one call added or found again (`POST /v1/pantry/items` with a scan,
/// `POST /v1/shopping-list/checked/pantry`).
public struct PantryItems: Codable, Hashable, Sendable {
    public var items: [PantryItem]

    public init(items: [PantryItem]) {
        self.items = items
    }
}

/// A pantry item as a pantry scan offers it to the model (docs/architecture.md, "Scans from the pantry"): the id its
/// recipes name in `usesUp`, its name, and when to use it by.
public struct OfferedPantryItem: Codable, Hashable, Sendable {
    public var id: UUID
    public var name: String
    public var useSoonBy: CalendarDay?

    public init(id: UUID, name: String, useSoonBy: CalendarDay?) {
        self.id = id
        self.name = name
        self.useSoonBy = useSoonBy
    }

    /// The item offered.
    public init(_ item: PantryItem) {
        self.init(id: item.id, name: item.name, useSoonBy: item.useSoonBy)
    }
}
