import Foundation

/// The rules of a scan answer (docs/architecture.md, "The scan answer contract"), and the validators and JSON Schema built from them.
///
/// There are two shapes with the same rules. ``scanResponse`` is what clients receive: every ingredient, recipe and
/// recipe ingredient has a UUID `id`, and the server adds `appliedProfile`, `withheldRecipes`, `mode` and, for a dish
/// scan, `dish` (``DishAnswerContract``). ``modelAnswer`` is what the model writes for a fridge scan: the same without
/// the ids, which the server assigns — they are never trusted from the model, and asking it for some 114 UUIDs would
/// spend about half of its output tokens on them.
public enum ScanResponseContract {
    /// A scan response as clients receive it, with server-assigned ids.
    public static let scanResponse = shape(withIDs: true)

    /// A scan answer as the model writes it: the rules of ``scanResponse`` without the ids.
    public static let modelAnswer = shape(withIDs: false)

    /// The JSON Schema for OpenAI Structured Outputs (`response_format.json_schema.schema`, with `strict: true`).
    public static var jsonSchema: JSONValue { modelAnswer.jsonSchema }

    /// Checks a scan response against every rule (ids included) and returns it.
    /// Throws every violation found, each with its JSON path, rather than stopping at the first.
    public static func validate(_ data: Data) throws(ScanResponseValidationError) -> ScanResponse {
        try decode(try parse(data, against: scanResponse))
    }

    /// Checks a model's answer against every rule and returns it as a ``ScanResponse`` whose ids are fresh
    /// server-generated UUIDs; any `id` the model wrote where the response has one is discarded, never trusted.
    /// Throws every violation found, each with its JSON path.
    public static func validateModelAnswer(_ data: Data) throws(ScanResponseValidationError) -> ScanResponse {
        try decode(scanResponse.settingIDs(in: try parse(data, against: modelAnswer, ignoringIDsOf: scanResponse), fresh: true))
    }

    private static func shape(withIDs: Bool) -> JSONShape {
        func object(_ properties: [JSONProperty]) -> JSONShape { .entity(properties, withID: withIDs) }
        let ingredient = object([
            JSONProperty("name", .string(length: 1...100)),
            JSONProperty("category", .string(length: 1...50)),
            JSONProperty("confidence", .number(0...1)),
        ])
        let recipeIngredient = object([
            JSONProperty("name", .string(length: 1...100)),
            JSONProperty("isDetected", .boolean),
            JSONProperty("substitution", .nullable(.string(length: 0...200))),
        ])
        let recipe = object([
            JSONProperty("name", .string(length: 1...200)),
            JSONProperty("summary", .string(length: 1...500)),
            JSONProperty("cookTimeMinutes", .integer(1...120)),
            JSONProperty("difficulty", .oneOf(Difficulty.allCases.map(\.rawValue))),
            JSONProperty("ingredients", .array(of: recipeIngredient, count: 1...20)),
            JSONProperty("steps", .array(of: .string(length: 1...500), count: 1...15)),
            JSONProperty("makeItFasterTip", .nullable(.string(length: 0...300))),
            allergensProperty(withIDs: withIDs),
        ])
        let answer = [
            JSONProperty("ingredients", .array(of: ingredient, count: 0...30)),
            JSONProperty("recipes", .array(of: recipe, count: 0...4)),
        ]
        guard withIDs else { return .object(answer) }
        // What the server adds for clients; absent from answers recorded before profiles existed.
        let withheld = JSONShape.object([JSONProperty("name", .string(length: 1...200)), JSONProperty("reason", .string(length: 1...500))])
        return .object(
            answer + [
                JSONProperty("appliedProfile", KitchenProfile.shape, required: false),
                JSONProperty("withheldRecipes", .array(of: withheld, count: 0...8), required: false),
                JSONProperty("mode", .oneOf(ScanMode.allCases.map(\.rawValue)), required: false),
                JSONProperty("dish", DishAnswerContract.clientDish, required: false),
            ]
        )
    }

    /// A recipe's `allergens`: the EU-14 groups it contains. The model must declare them (an answer without them breaks
    /// the contract, as it could not be written under strict Structured Outputs); clients may meet recipes answered
    /// before they were declared, without them.
    static func allergensProperty(withIDs: Bool) -> JSONProperty {
        let groups = KitchenProfile.Allergen.allCases.map(\.rawValue)
        return JSONProperty("allergens", .array(of: .oneOf(groups), count: 0...groups.count), required: !withIDs)
    }

    /// `data` parsed strictly and checked against `shape`; with `idShape`, any `id` it declares removed first.
    static func parse(
        _ data: Data,
        against shape: JSONShape,
        ignoringIDsOf idShape: JSONShape? = nil
    ) throws(ScanResponseValidationError) -> JSONValue {
        var value: JSONValue
        do {
            value = try StrictJSONParser().parse(data)
        } catch {
            throw ScanResponseValidationError(violations: [JSONViolation(path: "$", message: "not valid JSON: \(error)")])
        }
        if let idShape { value = idShape.settingIDs(in: value, fresh: false) }
        let violations = shape.violations(of: value)
        guard violations.isEmpty else { throw ScanResponseValidationError(violations: violations) }
        return value
    }

    /// A checked value as `Value`, decoded from the parsed tree rather than from its text written out again.
    static func decode<Value: Decodable>(_ value: JSONValue, as type: Value.Type = ScanResponse.self) throws(ScanResponseValidationError) -> Value {
        do {
            return try JSONValueDecoder().decode(Value.self, from: value)
        } catch {
            throw ScanResponseValidationError(violations: [JSONViolation(path: "$", message: "does not decode: \(error)")])
        }
    }
}

extension JSONShape {
    /// An object of the contract: with a server-assigned UUID `id` first in the shape clients receive, without one in
    /// the shape the model writes.
    static func entity(_ properties: [JSONProperty], withID: Bool) -> JSONShape {
        .object((withID ? [JSONProperty("id", .uuid)] : []) + properties)
    }
}

/// A scan answer that broke the contract, with every violation.
public struct ScanResponseValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    public let violations: [JSONViolation]

    public init(violations: [JSONViolation]) {
        self.violations = violations
    }

    public var description: String {
        "invalid scan answer: " + violations.map(\.description).joined(separator: "; ")
    }
}

extension JSONShape {
    /// `value` with every `id` this shape declares set to a fresh UUID (`fresh`), or removed.
    func settingIDs(in value: JSONValue, fresh: Bool) -> JSONValue {
        switch (self, value) {
        case (.object(let properties), .object(var object)):
            for property in properties {
                if property.name == "id", case .uuid = property.shape {
                    object["id"] = fresh ? .string(UUID().uuidString.lowercased()) : nil
                } else if let member = object[property.name] {
                    object[property.name] = property.shape.settingIDs(in: member, fresh: fresh)
                }
            }
            return .object(object)
        case (.array(let element, _), .array(let elements)):
            return .array(elements.map { element.settingIDs(in: $0, fresh: fresh) })
        case (.nullable(let wrapped), _):
            return wrapped.settingIDs(in: value, fresh: fresh)
        default:
            return value
        }
    }
}
