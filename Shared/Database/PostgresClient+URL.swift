import Foundation
import NIOSSL
import PostgresNIO

extension PostgresClient.Configuration {
    /// Reads `postgres://user:password@host:port/database?sslmode=…` (the form of `DATABASE_URL`).
    /// User and password are percent-decoded. `sslmode` is `disable`, `prefer` (the default) or
    /// `require`/`verify-full`, which both demand TLS with the server's certificate verified.
    public init(url text: String) throws(DatabaseURLError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            scheme == "postgres" || scheme == "postgresql"
        else { throw DatabaseURLError("must be a postgres:// URL") }
        guard let host = components.host, !host.isEmpty else { throw DatabaseURLError("must name a host") }
        guard let user = components.user, !user.isEmpty else { throw DatabaseURLError("must name a user") }

        let tls: TLS
        switch components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer" {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-full": tls = .require(.makeClientConfiguration())
        case let mode: throw DatabaseURLError("has an unsupported sslmode \(mode)")
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
