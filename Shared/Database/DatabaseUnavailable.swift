import PostgresNIO

/// PostgreSQL cannot be used right now: a statement did not finish in time. Services answer 503
/// `service_unavailable`, as they do for PostgresNIO's own connection errors.
public struct DatabaseUnavailable: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// What a failed database statement says about the request it served, and so how the request is answered.
public enum DatabaseFailure: Sendable, Hashable {
    /// PostgreSQL is out of reach or cannot take the statement right now (503 `service_unavailable`): a retry soon
    /// may succeed.
    case outage
    /// The request carried text the database cannot store (400 `bad_request`): a retry would fail the same way.
    case unstorableText
    /// Anything else: a statement or a value of Kiwi's own that PostgreSQL refused (500 `internal_error`).
    case bug
}

extension DatabaseFailure {
    /// How `error` is answered: ``DatabaseUnavailable`` and PostgresNIO's connection-level errors are outages, and so
    /// are the server's errors that say it cannot serve now (SQLSTATE classes 08 connection exception, 53 insufficient
    /// resources and 58 system error; 57P01–57P05 shutdowns and `cannot_connect_now`, 57014 `query_canceled` (a
    /// statement timeout), 40001 `serialization_failure`, 40P01 `deadlock_detected`, 55P03 `lock_not_available`,
    /// 25006 `read_only_sql_transaction` (a primary turned standby)). 22021 `character_not_in_repertoire` and 22P05
    /// `untranslatable_character` are text a client sent that slipped past validation. Every other server error is
    /// Kiwi's own bug, never an outage a client should wait out; nil for an error that is not a database's. A
    /// transaction's failure is answered as the error inside it.
    public init?(_ error: any Error) {
        let error = Self.unwrapped(error)
        if error is DatabaseUnavailable {
            self = .outage
            return
        }
        guard let error = error as? PSQLError else { return nil }
        guard error.code == .server else {
            self = error.code == .tooManyParameters ? .bug : .outage
            return
        }
        let state = error.serverInfo?[.sqlState] ?? ""
        if ["22021", "22P05"].contains(state) {
            self = .unstorableText
        } else if ["08", "53", "58"].contains(String(state.prefix(2)))
            || ["57P01", "57P02", "57P03", "57P04", "57P05", "57014", "40001", "40P01", "55P03", "25006"].contains(state)
        {
            self = .outage
        } else {
            self = .bug
        }
    }
}

extension DatabaseFailure {
    /// `error`'s SQLSTATE, for the log ("none" when it has none): never its message, which may quote the request's values.
    public static func code(of error: any Error) -> String {
        (unwrapped(error) as? PSQLError)?.serverInfo?[.sqlState] ?? "none"
    }

    /// The error a transaction failed with, which PostgresNIO wraps whatever it was (a statement's, its begin's or its
    /// commit's); any other error as it is.
    private static func unwrapped(_ error: any Error) -> any Error {
        guard let transaction = error as? PostgresTransactionError else { return error }
        return transaction.closureError ?? transaction.beginError ?? transaction.commitError ?? error
    }
}
