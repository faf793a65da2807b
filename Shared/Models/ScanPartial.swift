import Foundation

/// One element of a scan's answer shown to its client before the answer is whole (docs/architecture.md, "Streamed
/// scans"): the detected ingredients, a recipe that has been validated, guarded against the profile and labelled, or a
/// restart that withdraws everything shown before it. The scan's `result` stays the last word.
public enum ScanPartial: Hashable, Sendable {
    case ingredients([Ingredient])
    /// `index`: the recipe's position among the recipes shown since the last restart, from 0.
    case recipe(index: Int, Recipe)
    /// A plan's meal (docs/architecture.md, "Meal plans"), checked against the meals shown before it; `index`: its
    /// position among the meals shown since the last restart, from 0.
    case meal(index: Int, PlannedMeal)
    /// A receipt's line (docs/architecture.md, "Receipt scans"); `index`: its position among the lines shown since the
    /// last restart, from 0.
    case line(index: Int, ReceiptLine)
    /// Everything shown so far is withdrawn; what stands is sent again after it.
    case restart

    /// The server-sent event's name, and the stored entry's `kind`.
    public var kind: String {
        switch self {
        case .ingredients: "ingredients"
        case .recipe: "recipe"
        case .meal: "meal"
        case .line: "line"
        case .restart: "restart"
        }
    }
}

extension ScanPartial: Codable {
    fileprivate enum CodingKeys: String, CodingKey {
        case kind, ingredients, index, recipe, meal, line
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .kind) {
        case "ingredients": self = .ingredients(try container.decode([Ingredient].self, forKey: .ingredients))
        case "recipe": self = .recipe(index: try container.decode(Int.self, forKey: .index), try container.decode(Recipe.self, forKey: .recipe))
        case "meal": self = .meal(index: try container.decode(Int.self, forKey: .index), try container.decode(PlannedMeal.self, forKey: .meal))
        case "line": self = .line(index: try container.decode(Int.self, forKey: .index), try container.decode(ReceiptLine.self, forKey: .line))
        case "restart": self = .restart
        case let kind:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown partial kind \(kind)")
        }
    }

    /// `kind` and the element's fields, flat: the stored entry; the event's data is the same with `scanId` for `kind`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try encodeFields(to: &container)
    }

    fileprivate func encodeFields(to container: inout KeyedEncodingContainer<CodingKeys>) throws {
        switch self {
        case .ingredients(let ingredients):
            try container.encode(ingredients, forKey: .ingredients)
        case .recipe(let index, let recipe):
            try container.encode(index, forKey: .index)
            try container.encode(recipe, forKey: .recipe)
        case .meal(let index, let meal):
            try container.encode(index, forKey: .index)
            try container.encode(meal, forKey: .meal)
        case .line(let index, let line):
            try container.encode(index, forKey: .index)
            try container.encode(line, forKey: .line)
        case .restart:
            break
        }
    }
}

/// The data of an `ingredients`, `recipe`, `meal`, `line` or `restart` server-sent event: the scan's id and the element's fields
/// (``ScanPartial``); the event's name says which.
public struct ScanPartialEvent: Hashable, Sendable, Encodable {
    public var scanID: UUID
    public var partial: ScanPartial

    public init(scanID: UUID, partial: ScanPartial) {
        self.scanID = scanID
        self.partial = partial
    }

    private enum CodingKeys: String, CodingKey {
        case scanID = "scanId"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scanID, forKey: .scanID)
        var fields = encoder.container(keyedBy: ScanPartial.CodingKeys.self)
        try partial.encodeFields(to: &fields)
    }

    /// Reads an event's data, given its name (``ScanPartial/kind``).
    public init(name: String, data: Data) throws {
        struct Fields: Decodable {
            var scanId: UUID
            var ingredients: [Ingredient]?
            var index: Int?
            var recipe: Recipe?
            var meal: PlannedMeal?
            var line: ReceiptLine?
        }
        let fields = try KiwiJSON.decoder().decode(Fields.self, from: data)
        scanID = fields.scanId
        switch (name, fields.ingredients, fields.index, fields.recipe) {
        case ("ingredients", let ingredients?, _, _): partial = .ingredients(ingredients)
        case ("recipe", _, let index?, let recipe?): partial = .recipe(index: index, recipe)
        case ("meal", _, let index?, _) where fields.meal != nil: partial = .meal(index: index, fields.meal!)
        case ("line", _, let index?, _) where fields.line != nil: partial = .line(index: index, fields.line!)
        case ("restart", _, _, _): partial = .restart
        default: throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not a partial's event: \(name)"))
        }
    }
}
