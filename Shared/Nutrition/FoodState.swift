import KiwiDietGuard

/// The states a recipe's ingredient and a food of the nutrition table can be in, which change what 100 g of it holds
/// (docs/architecture.md, "Quantities, scaling and nutrition"): cooked rice holds a third of raw rice's energy, unsalted
/// butter a sixtieth of salted butter's sodium. The matcher keeps them, rather than dropping them as preparation words.
public enum FoodState: String, Sendable, Hashable, CaseIterable {
    case cooked, raw, dried, canned, frozen, smoked, salted, unsalted, skinless

    /// States that cannot both be: a food asked for in one is never matched to a food in the other.
    var opposite: FoodState? {
        switch self {
        case .cooked: .raw
        case .raw: .cooked
        case .salted: .unsalted
        case .unsalted: .salted
        default: nil
        }
    }

    /// The states a recipe's words say, each with the words that say it: "leftover" and "roast" mean cooked.
    static func named(in words: [String]) -> Set<FoodState> {
        var states = Set(words.compactMap { nameWords[$0] })
        let text = " " + words.joined(separator: " ") + " "
        for (phrase, state) in namePhrases where text.contains(" \(phrase) ") { states.insert(state) }
        return states
    }

    /// The states a food's description says ("Beets, cooked, boiled, drained", "Butter, without salt").
    static func described(in words: [String]) -> Set<FoodState> {
        var states = Set(words.compactMap { descriptionWords[$0] })
        let text = " " + words.joined(separator: " ") + " "
        for (phrase, state) in descriptionPhrases where text.contains(" \(phrase) ") { states.insert(state) }
        if states.contains(.unsalted) { states.remove(.salted) }
        return states
    }

    /// How a cooked food was cooked, by the words that say it in a name or a description: "roast" and "baked" are
    /// roasted, "poached" is boiled. A cooking method chooses between cooked rows, and between cooking yields.
    static func methods(in words: [String]) -> Set<String> {
        Set(words.compactMap { methodWords[$0] })
    }

    static let methodWords: [String: String] = [
        "roast": "roasted", "roasted": "roasted", "baked": "roasted", "rotisserie": "roasted", "grilled": "grilled",
        "broiled": "grilled", "barbecued": "grilled", "boiled": "boiled", "poached": "poached", "stewed": "boiled",
        "simmered": "boiled", "steamed": "steamed", "braised": "braised", "fried": "fried", "sauteed": "fried",
        "browned": "fried", "scrambled": "fried",
    ]

    /// Words of a recipe's ingredient name that say its state, and are not part of what the food is.
    static let nameWords: [String: FoodState] = [
        "cooked": .cooked, "leftover": .cooked, "boiled": .cooked, "steamed": .cooked, "roasted": .cooked, "roast": .cooked,
        "grilled": .cooked, "broiled": .cooked, "fried": .cooked, "baked": .cooked, "poached": .cooked, "sauteed": .cooked,
        "browned": .cooked, "braised": .cooked, "stewed": .cooked, "rotisserie": .cooked, "barbecued": .cooked,
        "raw": .raw, "uncooked": .raw, "dried": .dried, "canned": .canned, "tinned": .canned, "frozen": .frozen,
        "smoked": .smoked, "salted": .salted, "unsalted": .unsalted, "skinless": .skinless,
    ]

    static let namePhrases: [(String, FoodState)] = [
        ("skin removed", .skinless), ("skin off", .skinless), ("without skin", .skinless), ("no salt", .unsalted),
        ("without salt", .unsalted), ("no added salt", .unsalted),
    ]

    /// Words of a food's description that say its state. "Dry" pasta and grains are as bought, before cooking.
    static let descriptionWords: [String: FoodState] = [
        "cooked": .cooked, "boiled": .cooked, "steamed": .cooked, "roasted": .cooked, "grilled": .cooked, "broiled": .cooked,
        "fried": .cooked, "baked": .cooked, "poached": .cooked, "sauteed": .cooked, "braised": .cooked, "stewed": .cooked,
        "simmered": .cooked, "microwaved": .cooked, "rotisserie": .cooked, "prepared": .cooked, "raw": .raw,
        "uncooked": .raw, "unprepared": .raw, "dry": .raw, "dried": .dried, "dehydrated": .dried, "canned": .canned,
        "frozen": .frozen, "smoked": .smoked, "salted": .salted, "unsalted": .unsalted, "skinless": .skinless,
    ]

    static let descriptionPhrases: [(String, FoodState)] = [
        ("with salt", .salted), ("with added salt", .salted), ("without salt", .unsalted), ("without added salt", .unsalted),
        ("no salt added", .unsalted), ("meat only", .skinless), ("skin not eaten", .skinless), ("without skin", .skinless),
    ]
}
