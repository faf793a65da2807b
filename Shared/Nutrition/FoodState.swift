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

    /// What a recipe's words say of its state: "leftover" and "roast" mean cooked.
    static func named(in words: [String]) -> StatesSaid {
        StatesSaid(words, single: nameWords, phrases: namePhrases)
    }

    /// What a food's description says of its state ("Beets, cooked, boiled, drained", "Butter, without salt").
    static func described(in words: [String]) -> StatesSaid {
        var said = StatesSaid(words, single: descriptionWords, phrases: descriptionPhrases)
        if said.states.contains(.unsalted) { said.states.remove(.salted) }
        return said
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

    static let namePhrases = WordPhrases<FoodState>([
        ("skin removed", .skinless), ("skin off", .skinless), ("without skin", .skinless), ("no salt", .unsalted),
        ("without salt", .unsalted), ("no added salt", .unsalted),
    ])

    /// Words of a food's description that say its state. "Dry" pasta and grains are as bought, before cooking.
    static let descriptionWords: [String: FoodState] = [
        "cooked": .cooked, "boiled": .cooked, "steamed": .cooked, "roasted": .cooked, "grilled": .cooked, "broiled": .cooked,
        "fried": .cooked, "baked": .cooked, "poached": .cooked, "sauteed": .cooked, "braised": .cooked, "stewed": .cooked,
        "simmered": .cooked, "microwaved": .cooked, "rotisserie": .cooked, "prepared": .cooked, "raw": .raw,
        "uncooked": .raw, "unprepared": .raw, "dry": .raw, "dried": .dried, "dehydrated": .dried, "canned": .canned,
        "frozen": .frozen, "smoked": .smoked, "salted": .salted, "unsalted": .unsalted, "skinless": .skinless,
    ]

    static let descriptionPhrases = WordPhrases<FoodState>([
        ("with salt", .salted), ("with added salt", .salted), ("without salt", .unsalted), ("without added salt", .unsalted),
        ("no salt added", .unsalted), ("meat only", .skinless), ("skin not eaten", .skinless), ("without skin", .skinless),
    ])
}

/// The states a name or a description says, and which of its words say them: those words are not what the food is.
struct StatesSaid {
    var states: Set<FoodState> = []
    /// The positions of the words that say a state, alone or in a phrase.
    var positions: Set<Int> = []

    init(_ words: [String], single: [String: FoodState], phrases: WordPhrases<FoodState>) {
        for (position, word) in words.enumerated() {
            guard let state = single[word] else { continue }
            states.insert(state)
            positions.insert(position)
        }
        for (range, state) in phrases.matches(in: words) {
            states.insert(state)
            positions.formUnion(range)
        }
    }
}
