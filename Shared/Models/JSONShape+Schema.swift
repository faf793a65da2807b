extension JSONShape {
    /// The shape as a JSON Schema in the subset OpenAI Structured Outputs accepts with `strict: true`:
    /// every object closed (`additionalProperties: false`) with every property required, and nullable
    /// values as a type union (`["string", "null"]`).
    ///
    /// One difference is inherent: JSON Schema counts string length in Unicode scalars, the validator in
    /// user-perceived characters. A character is one or more scalars, so whatever the schema admits, the
    /// validator admits too.
    public var jsonSchema: JSONValue {
        .object(schemaObject(nullable: false))
    }

    private func schemaObject(nullable: Bool) -> JSONObject {
        func type(_ name: String) -> JSONValue {
            nullable ? .array([.string(name), .string("null")]) : .string(name)
        }
        var schema = JSONObject()
        switch self {
        case .nullable(let wrapped):
            return wrapped.schemaObject(nullable: true)
        case .object(let properties):
            schema["type"] = type("object")
            var members = JSONObject()
            for property in properties { members[property.name] = property.shape.jsonSchema }
            schema["properties"] = .object(members)
            schema["required"] = .array(properties.map { .string($0.name) })
            schema["additionalProperties"] = .bool(false)
        case .array(let element, let count):
            schema["type"] = type("array")
            schema["items"] = element.jsonSchema
            schema["minItems"] = .number(JSONNumber(count.lowerBound))
            schema["maxItems"] = .number(JSONNumber(count.upperBound))
        case .string(let length):
            schema["type"] = type("string")
            if length.lowerBound > 0 { schema["minLength"] = .number(JSONNumber(length.lowerBound)) }
            schema["maxLength"] = .number(JSONNumber(length.upperBound))
        case .uuid:
            schema["type"] = type("string")
            schema["format"] = .string("uuid")
        case .number(let range):
            schema["type"] = type("number")
            schema["minimum"] = .number(Self.number(range.lowerBound))
            schema["maximum"] = .number(Self.number(range.upperBound))
        case .integer(let range):
            schema["type"] = type("integer")
            schema["minimum"] = .number(JSONNumber(range.lowerBound))
            schema["maximum"] = .number(JSONNumber(range.upperBound))
        case .boolean:
            schema["type"] = type("boolean")
        case .oneOf(let allowed):
            schema["type"] = type("string")
            schema["enum"] = .array(allowed.map(JSONValue.string) + (nullable ? [.null] : []))
        }
        return schema
    }

    private static func number(_ value: Double) -> JSONNumber {
        value == value.rounded() && abs(value) < 1e15 ? JSONNumber(Int(value)) : JSONNumber(value)
    }
}
