import Foundation
import NIOSSL
import PostgresNIO

extension PostgresClient.Configuration {
    /// Reads `postgres://user:password@host:port/database?sslmode=…` (the form of `DATABASE_URL`).
    /// User and password are percent-decoded. `sslmode` is `disable`, `prefer` (the default), `require`,
    /// `verify-ca` or `verify-full`, with libpq's meanings. Idle connections close, and the pool's timers end, 10 s
    /// after a connection's last use; idle connections are not pinged.
    public init(url text: String) throws(DatabaseURLError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            scheme == "postgres" || scheme == "postgresql"
        else { throw DatabaseURLError("must be a postgres:// URL") }
        guard let host = components.host, !host.isEmpty else { throw DatabaseURLError("must name a host") }
        guard let user = components.user, !user.isEmpty else { throw DatabaseURLError("must name a user") }

        // The modes mean what they mean to libpq: `prefer` and `require` encrypt without checking the
        // certificate, `verify-ca` checks it against the trusted roots, `verify-full` also checks the host name.
        var certificateChecks = TLSConfiguration.makeClientConfiguration()
        let tls: TLS
        switch components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer" {
        case "disable":
            tls = .disable
        case "prefer":
            certificateChecks.certificateVerification = .none
            tls = .prefer(certificateChecks)
        case "require":
            certificateChecks.certificateVerification = .none
            tls = .require(certificateChecks)
        case "verify-ca":
            certificateChecks.certificateVerification = .noHostnameVerification
            tls = .require(certificateChecks)
        case "verify-full":
            tls = .require(certificateChecks)
        case let mode:
            throw DatabaseURLError("has an unsupported sslmode \(mode)")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.init(
            host: host,
            port: components.port ?? 5432,
            username: user,
            password: components.password,
            database: database.isEmpty ? nil : database,
            tls: tls
        )
        // The pool arms an idle timer (and a keep-alive one) whenever a connection goes back idle. The next lease
        // cancels them, but on Linux a task's sleep still fires at its deadline when cancelled (the reason for
        // `TimerWheel`), so with the defaults (close after 60 s, ping after 30 s) a busy service went on spending
        // 3-4 % of a core for up to a minute after its load.
        // Closing after 10 s ends that 10 s after the load; connections opened for a burst close 10 s after their last
        // use (docs/measurements/2026-11-24-load-tests.md). No keep-alive: a connection idle for at most 10 s needs no ping, and a ping as
        // often as the idle close fired together with it and left PostgresNIO 1.33's pool unable to shut down
        // (PostgresPoolShutdownTests).
        options.connectionIdleTimeout = .seconds(10)
        options.keepAliveBehavior = nil
    }
}

/// A `DATABASE_URL` that cannot be used, and why.
public struct DatabaseURLError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
