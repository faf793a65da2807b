extension JSONShape {
    /// The shape as a JSON Schema in the subset OpenAI Structured Outputs accepts with `strict: true`:
    /// every object closed (`additionalProperties: false`) with every property required, nullable
    /// values as a type union (`["string", "null"]`), and only the keywords OpenAI documents as supported.
    ///
    /// String lengths are not among those keywords (a schema with `minLength` or `maxLength` is refused with a 400),
    /// so they reach the model as a `description` ("1 to 80 characters") and the validator enforces them.
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
        case .constrained(let wrapped, _):
            return wrapped.schemaObject(nullable: nullable)
        case .object(let properties):
            schema["type"] = type("object")
            var members = JSONObject()
            for property in properties { members[property.name] = property.shape.jsonSchema }
            schema["properties"] = .object(members)
            schema["required"] = .array(properties.filter(\.isRequiredInSchema).map { .string($0.name) })
            schema["additionalProperties"] = .bool(false)
        case .array(let element, let count):
            schema["type"] = type("array")
            schema["items"] = element.jsonSchema
            schema["minItems"] = .number(JSONNumber(count.lowerBound))
            schema["maxItems"] = .number(JSONNumber(count.upperBound))
        case .string(let length):
            schema["type"] = type("string")
            schema["description"] = .string("\(length.lowerBound) to \(length.upperBound) characters")
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

extension JSONShape {
    /// The shape without any object member called `name`, at every depth: the schema of an answer that does not ask for
    /// a member the full shape allows (an English answer's `canonicalName`, which its `name` already is).
    public func removingMembers(named name: String) -> JSONShape {
        switch self {
        case .object(let properties):
            .object(properties.filter { $0.name != name }.map { $0.withShape($0.shape.removingMembers(named: name)) })
        case .array(let element, let count): .array(of: element.removingMembers(named: name), count: count)
        case .nullable(let wrapped): .nullable(wrapped.removingMembers(named: name))
        case .constrained(let wrapped, let constraint): .constrained(wrapped.removingMembers(named: name), constraint)
        case .string, .uuid, .number, .integer, .boolean, .oneOf: self
        }
    }
}
