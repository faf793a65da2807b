import Foundation

/// Where a saved recipe breaks its owner's profile as it is today (docs/architecture.md, "Saved recipes meet today's
/// profile"): a recipe saved before an allergy was added is kept, and says so every time it is shown.
public struct RecipeConflict: Codable, Hashable, Sendable {
    /// Which part of the profile the recipe breaks.
    public enum Rule: String, Codable, Hashable, Sendable {
        case allergy, diet
    }

    /// How the conflict was found: the same two lines of defence that guard a scan's answer.
    public enum Source: String, Codable, Hashable, Sendable {
        /// The recipe's own allergen labels (`allergens`: what the model declared and the guard found when it was
        /// answered).
        case allergens
        /// The guard's lexicon, reading the recipe's name, summary, ingredients and steps today.
        case text
    }

    public var rule: Rule
    /// The allergen group (`peanuts`) or the diet (`vegan`), as the profile names it.
    public var name: String
    public var source: Source
    /// What the recipe says: an ingredient's name or the word found; for a label, the group's name.
    public var found: String
    /// Where it says it: `ingredient 2`, `step 3`, `its name`, `its summary`, `the allergens it declares`.
    public var place: String
    /// The conflict in words a person reads: "It uses peanut butter, which contains peanuts."
    public var reason: String
    /// For a household member, the member ids whose allergy or diet this is; absent otherwise.
    public var `for`: [UUID]?

    public init(rule: Rule, name: String, source: Source, found: String, place: String, reason: String, for members: [UUID]? = nil) {
        self.rule = rule
        self.name = name
        self.source = source
        self.found = found
        self.place = place
        self.reason = reason
        self.for = members
    }
}
