import KiwiDevelopment
import KiwiStrictJSON

/// The stub's answer to a Kiwi pantry scan (a schema whose recipes have `usesUp`): its fridge answer for the request's
/// digest, each recipe using up one offered item in turn, the first offered (the soonest to use) first, as a model
/// told to use those first would.
enum PantryAnswers {
    static func answer(forDigest digest: [UInt8], usingUp labels: [String]) -> JSONValue {
        guard case .object(var answer) = FridgeAnswers.answer(forDigest: digest), case .array(let recipes)? = answer["recipes"] else {
            preconditionFailure("a fridge answer is an object with recipes")
        }
        answer["recipes"] = .array(
            recipes.enumerated().map { index, recipe in
                guard case .object(var object) = recipe else { return recipe }
                object["usesUp"] = .array(labels.isEmpty ? [] : [.string(labels[index % labels.count])])
                return .object(object)
            }
        )
        return .object(answer)
    }
}
