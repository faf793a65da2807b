import KiwiModels
import KiwiStrictJSON

extension JSONValue {
    /// Replaces (or with `nil`, removes) the value at the given path of member names and array indexes.
    public mutating func set(_ path: some Collection<String>, to value: JSONValue?) {
        guard let head = path.first else {
            if let value { self = value }
            return
        }
        let rest = path.dropFirst()
        switch self {
        case .object(var object):
            if rest.isEmpty {
                object[head] = value
            } else {
                var child = object[head] ?? .null
                child.set(rest, to: value)
                object[head] = child
            }
            self = .object(object)
        case .array(var elements):
            let index = Int(head)!
            if rest.isEmpty, value == nil {
                elements.remove(at: index)
            } else {
                elements[index].set(rest, to: value)
            }
            self = .array(elements)
        default:
            break
        }
    }
}
