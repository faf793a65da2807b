import Foundation

extension JSONShape {
    /// Every rule the value breaks, each with its path; empty when the value fits the shape.
    public func violations(of value: JSONValue, at path: String = "$") -> [JSONViolation] {
        var violations: [JSONViolation] = []
        collectViolations(of: value, at: path, into: &violations)
        return violations
    }

    private func collectViolations(of value: JSONValue, at path: String, into violations: inout [JSONViolation]) {
        func fail(_ message: String) { violations.append(JSONViolation(path: path, message: message)) }
        func wrongType(_ expected: String) { fail("expected \(expected), found \(value.typeName)") }

        switch (self, value) {
        case (.nullable, .null):
            return
        case (.nullable(let wrapped), _):
            wrapped.collectViolations(of: value, at: path, into: &violations)
        case (.constrained(let wrapped, let constraint), _):
            wrapped.collectViolations(of: value, at: path, into: &violations)
            violations += constraint.check(value, path)

        case (.object(let properties), .object(let object)):
            for property in properties {
                let memberPath = "\(path).\(property.name)"
                if let member = object[property.name] {
                    property.shape.collectViolations(of: member, at: memberPath, into: &violations)
                } else if property.isRequired {
                    violations.append(JSONViolation(path: memberPath, message: "required field is missing"))
                }
            }
            let known = Set(properties.map(\.name))
            for key in object.keys where !known.contains(key) {
                violations.append(JSONViolation(path: "\(path).\(key)", message: "unknown field"))
            }
        case (.object, _):
            wrongType("object")

        case (.array(let element, let count), .array(let elements)):
            if !count.contains(elements.count) {
                fail("must have \(Self.describe(count)) items, found \(elements.count)")
            }
            for (index, item) in elements.enumerated() {
                element.collectViolations(of: item, at: "\(path)[\(index)]", into: &violations)
            }
        case (.array, _):
            wrongType("array")

        case (.string(let length), .string(let text)):
            if !length.contains(text.count) {
                fail("must be \(Self.describe(length)) characters long, found \(text.count)")
            }
        case (.uuid, .string(let text)):
            if UUID(uuidString: text) == nil { fail("must be a UUID") }
        case (.oneOf(let allowed), .string(let text)):
            if !allowed.contains(text) { fail("must be one of \(allowed.joined(separator: ", ")), found \"\(text)\"") }
        case (.string, _):
            wrongType("string")
        case (.uuid, _):
            wrongType("string")
        case (.oneOf, _):
            wrongType("string")

        case (.number(let range), .number(let number)):
            if !range.contains(number.value) {
                fail("must be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound)), found \(number.text)")
            }
        case (.number, _):
            wrongType("number")

        case (.integer(let range), .number(let number)):
            if !number.isInteger {
                fail("must be an integer, found \(number.text)")
            } else if !(Double(range.lowerBound)...Double(range.upperBound)).contains(number.value) {
                fail("must be between \(range.lowerBound) and \(range.upperBound), found \(number.text)")
            }
        case (.integer, _):
            wrongType("integer")

        case (.boolean, .bool):
            return
        case (.boolean, _):
            wrongType("boolean")
        }
    }

    private static func describe(_ range: ClosedRange<Int>) -> String {
        range.lowerBound == range.upperBound ? "exactly \(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
