import Synchronization

/// A value passed on exactly once, from whoever made it to the one task that uses it: after ``take()`` the
/// handover holds nothing, so a large value (a photo, a request body) is freed as soon as its user is done with it,
/// not when everything that could reach the handover is.
public final class Handover<Value: Sendable>: Sendable {
    private let value: Mutex<Value?>

    public init(_ value: consuming Value) {
        self.value = Mutex(consume value)
    }

    /// The value the first time; nil after that.
    public func take() -> Value? {
        value.withLock { value in
            defer { value = nil }
            return value
        }
    }
}
