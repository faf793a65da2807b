import Foundation
import NIOSSL
import PostgresNIO

extension PostgresClient.Configuration {
    /// Reads `postgres://user:password@host:port/database?sslmode=…` (the form of `DATABASE_URL`).
    /// User and password are percent-decoded. `sslmode` is `disable`, `prefer` (the default), `require`,
    /// `verify-ca` or `verify-full`, with libpq's meanings.
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
    }
}

/// A `DATABASE_URL` that cannot be used, and why.
public struct DatabaseURLError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
