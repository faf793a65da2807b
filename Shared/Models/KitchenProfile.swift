import Foundation
import KiwiStrictJSON

/// How a user cooks (`GET`/`PUT /v1/profile`): diets and allergies every answer is checked against, dislikes and
/// limits the model is asked to respect. Every scan carries the profile as it was when the scan started.
public struct KitchenProfile: Codable, Hashable, Sendable {
    /// A way of eating the user follows.
    public enum Diet: String, Codable, Hashable, Sendable, CaseIterable {
        case vegetarian, vegan, pescatarian
        case glutenFree = "gluten_free"
        case dairyFree = "dairy_free"
        case halal, kosher
        case lowCarb = "low_carb"
    }

    /// The 14 allergen groups EU food law (Regulation 1169/2011, Annex II) requires to be declared; they include the
    /// US "major nine".
    public enum Allergen: String, Codable, Hashable, Sendable, CaseIterable {
        case gluten, crustaceans, eggs, fish, peanuts, soybeans, milk
        case treeNuts = "tree_nuts"
        case celery, mustard, sesame, sulphites, lupin, molluscs
    }

    /// The diets the user follows; each but low-carb is checked on every answer.
    public var diets: [Diet]
    /// The allergen groups the user must avoid; checked on every answer.
    public var allergies: [Allergen]
    /// Short ingredient names, lower-cased, each once, that the user would rather not cook with.
    public var dislikes: [String]
    /// The longest a recipe may take, 5 to 120 minutes; nil for no limit.
    public var maxCookTimeMinutes: Int?
    /// How many people to cook for, 1 to 12; nil when unsaid.
    public var servings: Int?

    public init(diets: [Diet] = [], allergies: [Allergen] = [], dislikes: [String] = [], maxCookTimeMinutes: Int? = nil, servings: Int? = nil) {
        self.diets = diets
        self.allergies = allergies
        self.dislikes = dislikes
        self.maxCookTimeMinutes = maxCookTimeMinutes
        self.servings = servings
    }

    private enum CodingKeys: String, CodingKey {
        case diets, allergies, dislikes, maxCookTimeMinutes, servings
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        diets = try container.decodeIfPresent([Diet].self, forKey: .diets) ?? []
        allergies = try container.decodeIfPresent([Allergen].self, forKey: .allergies) ?? []
        dislikes = try container.decodeIfPresent([String].self, forKey: .dislikes) ?? []
        maxCookTimeMinutes = try container.decodeIfPresent(Int.self, forKey: .maxCookTimeMinutes)
        servings = try container.decodeIfPresent(Int.self, forKey: .servings)
    }

    /// Writes every member, unset numbers as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(diets, forKey: .diets)
        try container.encode(allergies, forKey: .allergies)
        try container.encode(dislikes, forKey: .dislikes)
        try container.encode(maxCookTimeMinutes, forKey: .maxCookTimeMinutes)
        try container.encode(servings, forKey: .servings)
    }

    /// A profile that asks for nothing.
    public var isEmpty: Bool { self == KitchenProfile() }

    /// The most dislikes a profile keeps.
    public static let maximumDislikes = 20

    /// This person's profile when they cook for `others` too (a household's table): every allergy and every diet of
    /// anyone at it, so that a recipe is vegetarian if one of them is; the others' dislikes after this person's, as many
    /// as a profile keeps, since dislikes are only asked for; the cook time and servings stay this person's.
    public func atTable(with others: [KitchenProfile]) -> KitchenProfile {
        let everyone = [self] + others
        var dislikes: [String] = []
        for dislike in everyone.flatMap(\.dislikes) where !dislikes.contains(dislike) && dislikes.count < Self.maximumDislikes {
            dislikes.append(dislike)
        }
        return KitchenProfile(
            diets: Diet.allCases.filter { diet in everyone.contains { $0.diets.contains(diet) } },
            allergies: Allergen.allCases.filter { allergen in everyone.contains { $0.allergies.contains(allergen) } },
            dislikes: dislikes,
            maxCookTimeMinutes: maxCookTimeMinutes,
            servings: servings
        )
    }
    /// How long one dislike may be, in characters.
    public static let dislikeLength = 1...40

    /// The document's rules: every member optional (a missing list is empty, a missing number unset), nothing else
    /// allowed.
    public static let shape = JSONShape.object([
        JSONProperty("diets", .array(of: .oneOf(Diet.allCases.map(\.rawValue)), count: 0...Diet.allCases.count), required: false),
        JSONProperty("allergies", .array(of: .oneOf(Allergen.allCases.map(\.rawValue)), count: 0...Allergen.allCases.count), required: false),
        JSONProperty("dislikes", .array(of: .string(length: dislikeLength), count: 0...maximumDislikes), required: false),
        JSONProperty("maxCookTimeMinutes", .nullable(.integer(5...120)), required: false),
        JSONProperty("servings", .nullable(.integer(1...12)), required: false),
    ])

    /// Reads a profile document as a client sends it, checking every rule: the shape, no diet or allergy listed twice,
    /// and dislikes that are plain ingredient names (they go into the model's prompt, so anything that reads like an
    /// instruction is refused). Dislikes are kept lower-cased and trimmed of spaces, each once (the first of those that
    /// are the same once so written). Throws every broken rule with its path. `openapi.yaml` states each rule, the
    /// dislikes' as a pattern.
    public static func validate(_ data: Data) throws(KitchenProfileValidationError) -> KitchenProfile {
        var value: JSONValue
        do {
            value = try StrictJSONParser().parse(data)
        } catch {
            throw KitchenProfileValidationError(violations: [JSONViolation(path: "$", message: "not valid JSON: \(error)")])
        }
        // A whole number written with a fraction or an exponent (`3.0`, `3e0`) is an integer to JSON Schema, which
        // `openapi.yaml` is read by, so it is one here too (the model's answers are held to the stricter rule).
        if case .object(var members) = value {
            for name in ["maxCookTimeMinutes", "servings"] {
                if case .number(let number)? = members[name], !number.isInteger, let whole = Int(exactly: number.value) {
                    members[name] = .number(JSONNumber(whole))
                }
            }
            value = .object(members)
        }
        var violations = shape.violations(of: value)
        guard violations.isEmpty, case .object(let object) = value else { throw KitchenProfileValidationError(violations: violations) }
        func strings(_ name: String) -> [String] {
            guard case .array(let items)? = object[name] else { return [] }
            return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
        }
        func integer(_ name: String) -> Int? {
            guard case .number(let number)? = object[name] else { return nil }
            return Int(exactly: number.value)
        }
        // The shape counts characters as a person sees them; JSON Schema's `maxLength` counts Unicode scalars, and a
        // dislike must keep within both (a letter with a combining accent is one character and two scalars).
        for (index, dislike) in strings("dislikes").enumerated() where !dislikeLength.contains(dislike.unicodeScalars.count) {
            let message =
                "must be \(dislikeLength.lowerBound) to \(dislikeLength.upperBound) Unicode scalars long, found \(dislike.unicodeScalars.count)"
            violations.append(JSONViolation(path: "$.dislikes[\(index)]", message: message))
        }
        let dislikes = strings("dislikes").map { $0.trimmingCharacters(in: [" "]).lowercased() }
        for (index, dislike) in dislikes.enumerated() {
            if let problem = Self.problem(withDislike: dislike) {
                violations.append(JSONViolation(path: "$.dislikes[\(index)]", message: problem))
            }
        }
        for name in ["diets", "allergies"] {
            violations += duplicates(in: strings(name), at: "$.\(name)")
        }
        guard violations.isEmpty else { throw KitchenProfileValidationError(violations: violations) }
        var seen: Set<String> = []
        return KitchenProfile(
            diets: strings("diets").compactMap(Diet.init(rawValue:)),
            allergies: strings("allergies").compactMap(Allergen.init(rawValue:)),
            dislikes: dislikes.filter { seen.insert($0).inserted },
            maxCookTimeMinutes: integer("maxCookTimeMinutes"),
            servings: integer("servings")
        )
    }

    /// Why `dislike` is not a plain ingredient name, or nil when it is: letters, spaces, hyphens and apostrophes only,
    /// at most ``maximumDislikeWords`` words, none of the words prompts are steered with.
    static func problem(withDislike dislike: String) -> String? {
        guard !dislike.isEmpty else { return "must not be blank" }
        let allowed = CharacterSet.letters.union(CharacterSet(charactersIn: " -'’"))
        guard dislike.unicodeScalars.allSatisfy(allowed.contains) else {
            return "must be a plain ingredient name: letters, spaces, hyphens and apostrophes only"
        }
        let words = dislike.split(whereSeparator: { $0 == " " || $0 == "-" })
        guard words.count <= maximumDislikeWords else { return "must be an ingredient name of at most \(maximumDislikeWords) words" }
        if let word = words.first(where: { instructionWords.contains(String($0)) }) {
            return "must be an ingredient name, not an instruction (\"\(word)\")"
        }
        return nil
    }

    /// The most words a dislike may have ("sun-dried tomato paste" has four).
    static let maximumDislikeWords = 4
    /// Words that steer a model rather than name food: a dislike with one of them is refused.
    static let instructionWords: Set<String> = [
        "ignore", "disregard", "forget", "instruction", "instructions", "prompt", "system", "assistant", "user", "respond",
        "reply", "answer", "output", "return", "json", "schema", "rule", "rules", "pretend", "act", "you", "your", "please",
        "must", "never", "always", "should", "recipe", "recipes", "previous", "above", "below",
    ]

    private static func duplicates(in values: [String], at path: String) -> [JSONViolation] {
        var seen: Set<String> = []
        return values.enumerated().compactMap { index, value in
            seen.insert(value).inserted ? nil : JSONViolation(path: "\(path)[\(index)]", message: "lists \"\(value)\" twice")
        }
    }
}

/// A profile document that broke the rules, with every rule it broke.
public struct KitchenProfileValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    public let violations: [JSONViolation]

    public init(violations: [JSONViolation]) {
        self.violations = violations
    }

    public var description: String { violations.map(\.description).joined(separator: "; ") }
}
