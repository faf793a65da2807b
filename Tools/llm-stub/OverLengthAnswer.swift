import KiwiModels
import KiwiStrictJSON

/// What a model under strict Structured Outputs can write that still breaks Kiwi's contract: strict mode holds the
/// schema's structure, but string lengths are only described to it (`maxLength` is not a supported keyword), so a
/// wordy model can write a recipe name or a step longer than the validator allows.
enum OverLengthAnswer {
    /// `answer` with its first recipe's name past 200 characters and its first step past 500, the contract's limits
    /// (`ScanResponseContract`, `DishAnswerContract`); everything else is left as it was.
    static func lengthening(_ answer: JSONValue) -> JSONValue {
        var answer = answer
        _ = lengthenFirstRecipe(in: &answer)
        return answer
    }

    static let nameTail = " with slow-roasted, hand-torn, lightly charred and generously seasoned vegetables"
    static let stepTail = " Keep stirring gently and taste as you go, adjusting the seasoning a little at a time."

    /// Lengthens the first object, depth first, that has a `name` and `steps`; false when there is none.
    private static func lengthenFirstRecipe(in value: inout JSONValue) -> Bool {
        switch value {
        case .object(var object):
            if case .string(let name)? = object["name"], case .array(var steps)? = object["steps"], case .string(let step)? = steps.first {
                object["name"] = .string(padded(name, with: nameTail, past: 200))
                steps[0] = .string(padded(step, with: stepTail, past: 500))
                object["steps"] = .array(steps)
                value = .object(object)
                return true
            }
            for member in object.members {
                var child = member.value
                if lengthenFirstRecipe(in: &child) {
                    object[member.key] = child
                    value = .object(object)
                    return true
                }
            }
            return false
        case .array(var elements):
            for index in elements.indices {
                guard lengthenFirstRecipe(in: &elements[index]) else { continue }
                value = .array(elements)
                return true
            }
            return false
        default:
            return false
        }
    }

    private static func padded(_ text: String, with tail: String, past limit: Int) -> String {
        var text = text
        while text.count <= limit { text += tail }
        return text
    }
}
