import Foundation
import KiwiModels
import KiwiStrictJSON

/// An independent reading of JSON Schema (the keywords OpenAI's strict mode uses), written from the
/// specification rather than from ``JSONShape``, so agreeing with it means the schema says what the
/// validator checks. `maxLength`/`minLength` count Unicode scalars, as JSON Schema defines.
struct JSONSchemaEvaluator {
    enum SchemaError: Error { case unsupportedKeyword(String) }

    static let supportedKeywords: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "minItems", "maxItems",
        "minLength", "maxLength", "minimum", "maximum", "enum", "format", "description",
    ]

    func accepts(_ value: JSONValue, schema: JSONValue) throws -> Bool {
        guard case .object(let schema) = schema else { return false }
        for key in schema.keys where !Self.supportedKeywords.contains(key) { throw SchemaError.unsupportedKeyword(key) }

        if let type = schema["type"] {
            let allowed: [String]
            switch type {
            case .string(let name): allowed = [name]
            case .array(let names): allowed = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
            default: return false
            }
            guard allowed.contains(where: { matches(value, type: $0) }) else { return false }
        }
        if case .array(let options) = schema["enum"], !options.contains(value) { return false }

        switch value {
        case .object(let object):
            if case .array(let required) = schema["required"] {
                for case .string(let name) in required where object[name] == nil { return false }
            }
            let properties: JSONObject
            if case .object(let declared) = schema["properties"] { properties = declared } else { properties = JSONObject() }
            for (key, member) in object.members {
                if let memberSchema = properties[key] {
                    guard try accepts(member, schema: memberSchema) else { return false }
                } else if schema["additionalProperties"] == .bool(false) {
                    return false
                }
            }
        case .array(let elements):
            if let minimum = integer(schema["minItems"]), elements.count < minimum { return false }
            if let maximum = integer(schema["maxItems"]), elements.count > maximum { return false }
            if let items = schema["items"] {
                for element in elements { guard try accepts(element, schema: items) else { return false } }
            }
        case .string(let text):
            let length = text.unicodeScalars.count
            if let minimum = integer(schema["minLength"]), length < minimum { return false }
            if let maximum = integer(schema["maxLength"]), length > maximum { return false }
            if schema["format"] == .string("uuid"), text.wholeMatch(of: /[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}/) == nil {
                return false
            }
        case .number(let number):
            if case .number(let minimum) = schema["minimum"], number.value < minimum.value { return false }
            if case .number(let maximum) = schema["maximum"], number.value > maximum.value { return false }
        case .null, .bool:
            break
        }
        return true
    }

    private func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null), ("number", .number):
            true
        case ("integer", .number(let number)):
            number.value == number.value.rounded()
        default:
            false
        }
    }

    private func integer(_ value: JSONValue?) -> Int? {
        if case .number(let number) = value { Int(exactly: number.value) } else { nil }
    }
}
