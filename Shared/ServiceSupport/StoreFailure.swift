/// A store's reading of the errors it raises (the database's is `DatabaseFailure`), in the three answers
/// ``RequestTrackingMiddleware`` gives them. The store's module defines the reading and the service declares the
/// conformance, so this module depends on no store. An enum's cases satisfy the three static requirements.
public protocol StoreFailure: Equatable, Sendable {
    /// The store cannot take requests right now (503 `service_unavailable`): a retry soon may succeed.
    static var outage: Self { get }
    /// The request carried text the store cannot keep (400 `bad_request`): a retry would fail the same way.
    static var unstorableText: Self { get }
    /// The store refused something of Kiwi's own (500 `internal_error`).
    static var bug: Self { get }

    /// What `error` says about the request, or nil for an error that is not the store's.
    init?(_ error: any Error)

    /// The code the log shows for `error` (a SQLSTATE for a database): never its message, which may quote the
    /// request's values.
    static func code(of error: any Error) -> String
}
