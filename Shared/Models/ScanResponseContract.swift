import Foundation

/// The rules of a scan answer (DESIGN.md §2), and the validator and JSON Schema built from them.
public enum ScanResponseContract {
    /// The categories the model is asked to use. The validator checks only the length of a category,
    /// so a category outside this list is not a reason to throw a whole answer away.
    public static let ingredientCategories = ["Dairy", "Protein", "Vegetable", "Fruit", "Grain", "Condiment", "Beverage", "Other"]

    /// A detected ingredient.
    public static let ingredient: JSONShape = .object([
        JSONProperty("id", .uuid),
        JSONProperty("name", .string(length: 1...100)),
        JSONProperty("category", .string(length: 1...50)),
        JSONProperty("confidence", .number(0...1)),
    ])

    /// An ingredient of a recipe.
    public static let recipeIngredient: JSONShape = .object([
        JSONProperty("id", .uuid),
        JSONProperty("name", .string(length: 1...100)),
        JSONProperty("isDetected", .boolean),
        JSONProperty("substitution", .nullable(.string(length: 0...200))),
    ])

    /// A recipe.
    public static let recipe: JSONShape = .object([
        JSONProperty("id", .uuid),
        JSONProperty("name", .string(length: 1...200)),
        JSONProperty("summary", .string(length: 1...500)),
        JSONProperty("cookTimeMinutes", .integer(1...120)),
        JSONProperty("difficulty", .oneOf(Difficulty.allCases.map(\.rawValue))),
        JSONProperty("ingredients", .array(of: recipeIngredient, count: 1...20)),
        JSONProperty("steps", .array(of: .string(length: 1...500), count: 1...15)),
        JSONProperty("makeItFasterTip", .nullable(.string(length: 0...300))),
    ])

    /// A whole scan answer.
    public static let scanResponse: JSONShape = .object([
        JSONProperty("ingredients", .array(of: ingredient, count: 0...30)),
        JSONProperty("recipes", .array(of: recipe, count: 0...4)),
    ])

    /// The JSON Schema for OpenAI Structured Outputs (`response_format.json_schema.schema`, with `strict: true`).
    public static var jsonSchema: JSONValue { scanResponse.jsonSchema }

    /// Parses and checks a model's answer against every rule, and returns it as a ``ScanResponse``.
    /// Throws every violation found, each with its JSON path, rather than stopping at the first.
    public static func validate(_ data: Data) throws(ScanResponseValidationError) -> ScanResponse {
        let value: JSONValue
        do {
            value = try StrictJSONParser().parse(data)
        } catch {
            throw ScanResponseValidationError(violations: [JSONViolation(path: "$", message: "not valid JSON: \(error)")])
        }
        let violations = scanResponse.violations(of: value)
        guard violations.isEmpty else { throw ScanResponseValidationError(violations: violations) }
        do {
            return try KiwiJSON.decoder().decode(ScanResponse.self, from: data)
        } catch {
            throw ScanResponseValidationError(violations: [JSONViolation(path: "$", message: "does not decode: \(error)")])
        }
    }
}

/// A model answer that broke the contract, with every violation.
public struct ScanResponseValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    public let violations: [JSONViolation]

    public init(violations: [JSONViolation]) {
        self.violations = violations
    }

    public var description: String {
        "invalid scan answer: " + violations.map(\.description).joined(separator: "; ")
    }
}
