import Foundation
import KiwiModels
import KiwiStrictJSON
import KiwiTestSupport
import Testing

/// Loads a fixture file from this target's `Fixtures` folder.
func fixture(_ name: String) throws -> Data {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
    return try Data(contentsOf: url)
}

/// Parses JSON text that the test itself wrote.
func json(_ text: String) throws -> JSONValue {
    try StrictJSONParser().parse(text)
}

/// Returns the valid fixture with one edit applied at a path such as `recipes.0.steps`.
func validAnswer(setting path: String, to value: JSONValue?) throws -> JSONValue {
    var document = try StrictJSONParser().parse(try fixture("valid-scan-response.json"))
    document.set(path.split(separator: ".").map(String.init), to: value)
    return document
}

/// The violations the contract finds in a document.
func violations(_ document: JSONValue) -> [JSONViolation] {
    ScanResponseContract.scanResponse.violations(of: document)
}

/// A string of `count` copies of `character`.
func text(_ count: Int, of character: Character = "a") -> JSONValue {
    .string(String(repeating: character, count: count))
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue {
    /// A fridge answer recorded before quantities as a model writes it today, when the schema requires every member:
    /// each recipe given the members added later that it lacks (2 servings, a step detail without a duration per
    /// step, ingredients without a measure). Members present are left as they are.
    var writtenNow: JSONValue {
        guard case .object(var root) = self, case .array(let recipes)? = root["recipes"] else { return self }
        root["recipes"] = .array(
            recipes.map { recipe in
                guard case .object(var object) = recipe else { return recipe }
                if object["servings"] == nil { object["servings"] = .number(JSONNumber(2)) }
                if object["stepDetails"] == nil, case .array(let steps)? = object["steps"] {
                    object["stepDetails"] = stepDetails(Array(repeating: nil, count: steps.count))
                }
                if case .array(let ingredients)? = object["ingredients"] {
                    object["ingredients"] = .array(
                        ingredients.map { ingredient in
                            guard case .object(var measured) = ingredient else { return ingredient }
                            for key in ["amount", "unit"] where measured[key] == nil { measured[key] = .null }
                            return .object(measured)
                        }
                    )
                }
                return .object(object)
            }
        )
        return .object(root)
    }

    /// The value with every `id` member removed: what the model writes.
    var withoutIDs: JSONValue {
        switch self {
        case .object(let object):
            var stripped = JSONObject()
            for (key, value) in object.members where key != "id" { stripped[key] = value.withoutIDs }
            return .object(stripped)
        case .array(let elements):
            return .array(elements.map(\.withoutIDs))
        default:
            return self
        }
    }
}

/// The value with object keys sorted, numbers compared by value and UUIDs by their bytes, so key order,
/// `1` vs `1.0` and the case of a UUID (Foundation writes upper case, PostgreSQL lower) do not matter.
func canonical(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let object):
        var sorted = JSONObject()
        for key in object.keys.sorted() { sorted[key] = canonical(object[key]!) }
        return .object(sorted)
    case .array(let elements): return .array(elements.map(canonical))
    case .number(let number): return .number(JSONNumber(number.value))
    case .string(let text): return .string(UUID(uuidString: text)?.uuidString ?? text)
    default: return value
    }
}

/// A dish answer as the model writes it today (quantities and step details included), its recipe declaring
/// `allergens`, or leaving them out when nil.
func dishAnswer(allergens: JSONValue? = .array(["eggs"])) -> JSONValue {
    var recipe = JSONObject([
        "name": "Shakshuka", "summary": "Eggs in tomato sauce.", "cookTimeMinutes": .number(JSONNumber(30)), "difficulty": "easy",
        "servings": .number(JSONNumber(2)),
        "ingredients": .array([.object(JSONObject(["name": "eggs", "quantity": "4", "amount": .number(JSONNumber(4)), "unit": "piece"]))]),
        "steps": .array(Array(repeating: "Stir.", count: 5)), "makeItFasterTip": .null, "stepDetails": stepDetails(Array(repeating: nil, count: 5)),
    ])
    recipe["allergens"] = allergens
    let dish = JSONObject([
        "name": "Shakshuka", "cuisine": "Middle Eastern", "confidence": .number(JSONNumber(0.9)), "recipe": .object(recipe),
    ])
    return .object(JSONObject(["dish": .object(dish)]))
}
