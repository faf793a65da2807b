/// A change a `PATCH` asks for to one field, as a JSON merge patch (RFC 7396) says it: a member left out keeps the
/// field, `null` clears it, a value sets it.
enum FieldChange<Value: Sendable & Hashable>: Sendable, Hashable {
    case keep
    case clear
    case set(Value)

    /// The field's value after the change.
    func applied(to current: Value?) -> Value? {
        switch self {
        case .keep: current
        case .clear: nil
        case .set(let value): value
        }
    }

    /// The same change with the value set read as `transform` reads it.
    func map<Other: Sendable & Hashable>(_ transform: (Value) throws -> Other) rethrows -> FieldChange<Other> {
        switch self {
        case .keep: .keep
        case .clear: .clear
        case .set(let value): .set(try transform(value))
        }
    }
}
