import Foundation
import KiwiStrictJSON

/// How a user cooks (`GET`/`PUT /v1/profile`): diets and allergies every answer is checked against, dislikes and
/// limits the model is asked to respect; when meals are eaten, where, for a plan's calendar; and the currency costs are
/// counted in. Every scan carries the profile as it was when the scan started.
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
    /// When each meal is eaten, as a plan's calendar shows it; nil for ``MealTimes/standard``'s.
    public var mealTimes: MealTimes?
    /// The IANA time zone the meal times are in (`Europe/Berlin`); nil for UTC.
    public var timeZone: String?
    /// The ISO 4217 currency (``Currency/codes``) recipes and shopping lists are costed in; nil until chosen or set from
    /// the first receipt added to the pantry.
    public var currency: String?
    /// The language answers are written in; nil for the best one the request's `Accept-Language` names, else English.
    public var language: AnswerLanguage?
    /// The units a scan's recipes are written in; nil for those the model chooses.
    public var units: UnitSystem?

    /// ``timeZone`` as a zone: UTC when the profile names none (or one this system does not know).
    public var zone: TimeZone { timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")! }

    public init(
        diets: [Diet] = [],
        allergies: [Allergen] = [],
        dislikes: [String] = [],
        maxCookTimeMinutes: Int? = nil,
        servings: Int? = nil,
        mealTimes: MealTimes? = nil,
        timeZone: String? = nil,
        currency: String? = nil,
        language: AnswerLanguage? = nil,
        units: UnitSystem? = nil
    ) {
        self.diets = diets
        self.allergies = allergies
        self.dislikes = dislikes
        self.maxCookTimeMinutes = maxCookTimeMinutes
        self.servings = servings
        self.mealTimes = mealTimes
        self.timeZone = timeZone
        self.currency = currency
        self.language = language
        self.units = units
    }

    private enum CodingKeys: String, CodingKey {
        case diets, allergies, dislikes, maxCookTimeMinutes, servings, mealTimes, timeZone, currency, language, units
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        diets = try container.decodeIfPresent([Diet].self, forKey: .diets) ?? []
        allergies = try container.decodeIfPresent([Allergen].self, forKey: .allergies) ?? []
        dislikes = try container.decodeIfPresent([String].self, forKey: .dislikes) ?? []
        maxCookTimeMinutes = try container.decodeIfPresent(Int.self, forKey: .maxCookTimeMinutes)
        servings = try container.decodeIfPresent(Int.self, forKey: .servings)
        mealTimes = try container.decodeIfPresent(MealTimes.self, forKey: .mealTimes)
        timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
        currency = try container.decodeIfPresent(String.self, forKey: .currency)
        language = try container.decodeIfPresent(AnswerLanguage.self, forKey: .language)
        units = try container.decodeIfPresent(UnitSystem.self, forKey: .units)
    }

    /// Writes every member, unset numbers as `null`; the meal times, time zone, currency, language and units only when
    /// set, as the defaults stand for them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(diets, forKey: .diets)
        try container.encode(allergies, forKey: .allergies)
        try container.encode(dislikes, forKey: .dislikes)
        try container.encode(maxCookTimeMinutes, forKey: .maxCookTimeMinutes)
        try container.encode(servings, forKey: .servings)
        try container.encodeIfPresent(mealTimes, forKey: .mealTimes)
        try container.encodeIfPresent(timeZone, forKey: .timeZone)
        try container.encodeIfPresent(currency, forKey: .currency)
        try container.encodeIfPresent(language, forKey: .language)
        try container.encodeIfPresent(units, forKey: .units)
    }

    /// A profile that asks nothing of an answer's recipes: the meal times and time zone only place a plan's meals in
    /// a calendar, the currency only counts costs, and the language and units are how an answer is written, not what it
    /// may hold.
    public var isEmpty: Bool {
        var rules = self
        (rules.mealTimes, rules.timeZone, rules.currency, rules.language, rules.units) = (nil, nil, nil, nil, nil)
        return rules == KitchenProfile()
    }

    /// A profile that asks nothing of an answer at all: nothing of its recipes (``isEmpty``), nor a language or units
    /// to write it in.
    public var asksNothingOfAnswers: Bool { isEmpty && language == nil && units == nil }

    /// The most dislikes a profile keeps.
    public static let maximumDislikes = 20

    /// This person's profile when they cook for `others` too (a household's table): every allergy and every diet of
    /// anyone at it, so that a recipe is vegetarian if one of them is; the others' dislikes after this person's, as many
    /// as a profile keeps, since dislikes are only asked for; the cook time, servings, times, currency, language and
    /// units stay this person's.
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
            servings: servings,
            mealTimes: mealTimes,
            timeZone: timeZone,
            currency: currency,
            language: language,
            units: units
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
        JSONProperty(
            "mealTimes",
            .nullable(.object(MealTime.allCases.map { JSONProperty($0.rawValue, .nullable(.string(length: 5...5)), required: false) })),
            required: false
        ),
        JSONProperty("timeZone", .nullable(.string(length: 1...64)), required: false),
        JSONProperty("currency", .oneOf(Currency.codes), required: false),
        JSONProperty("language", .oneOf(AnswerLanguage.allCases.map(\.rawValue)), required: false),
        JSONProperty("units", .oneOf(UnitSystem.allCases.map(\.rawValue)), required: false),
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
        var mealTimes: MealTimes?
        if case .object(let times)? = object["mealTimes"] {
            var read = MealTimes()
            for meal in MealTime.allCases {
                guard case .string(let text)? = times[meal.rawValue] else { continue }
                if MealTimes.clock(text) == nil {
                    violations.append(
                        JSONViolation(path: "$.mealTimes.\(meal.rawValue)", message: "must be a time of day, HH:mm, from 00:00 to 23:59")
                    )
                }
                read[meal] = text
            }
            mealTimes = read
        }
        var timeZone: String?
        if case .string(let name)? = object["timeZone"] {
            if TimeZone(identifier: name) == nil || !name.contains("/") && name != "UTC" {
                violations.append(JSONViolation(path: "$.timeZone", message: "must be an IANA time zone, such as Europe/Berlin or UTC"))
            }
            timeZone = name
        }
        guard violations.isEmpty else { throw KitchenProfileValidationError(violations: violations) }
        let currency: String? = if case .string(let code)? = object["currency"] { code } else { nil }
        let language: AnswerLanguage? = if case .string(let code)? = object["language"] { AnswerLanguage(rawValue: code) } else { nil }
        let units: UnitSystem? = if case .string(let name)? = object["units"] { UnitSystem(rawValue: name) } else { nil }
        var seen: Set<String> = []
        return KitchenProfile(
            diets: strings("diets").compactMap(Diet.init(rawValue:)),
            allergies: strings("allergies").compactMap(Allergen.init(rawValue:)),
            dislikes: dislikes.filter { seen.insert($0).inserted },
            maxCookTimeMinutes: integer("maxCookTimeMinutes"),
            servings: integer("servings"),
            mealTimes: mealTimes,
            timeZone: timeZone,
            currency: currency,
            language: language,
            units: units
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

/// When each meal of the day is eaten, each a local time of day, `HH:mm`; a meal without one is at its standard time.
public struct MealTimes: Codable, Hashable, Sendable {
    public var breakfast: String?
    public var lunch: String?
    public var dinner: String?

    public init(breakfast: String? = nil, lunch: String? = nil, dinner: String? = nil) {
        self.breakfast = breakfast
        self.lunch = lunch
        self.dinner = dinner
    }

    /// The times of a profile that sets none.
    public static let standard = MealTimes(breakfast: "08:00", lunch: "12:30", dinner: "19:00")

    public subscript(meal: MealTime) -> String? {
        get {
            switch meal {
            case .breakfast: breakfast
            case .lunch: lunch
            case .dinner: dinner
            }
        }
        set {
            switch meal {
            case .breakfast: breakfast = newValue
            case .lunch: lunch = newValue
            case .dinner: dinner = newValue
            }
        }
    }

    /// When `meal` is eaten: its time, or the standard one; as the hour and minute.
    public func clock(of meal: MealTime) -> (hour: Int, minute: Int) {
        self[meal].flatMap(Self.clock) ?? Self.clock(Self.standard[meal]!)!
    }

    /// `HH:mm` read as an hour and a minute; nil for anything else.
    public static func clock(_ text: String) -> (hour: Int, minute: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard text.utf8.count == 5, parts.count == 2,
            parts.allSatisfy({ $0.utf8.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return (hour, minute)
    }
}
