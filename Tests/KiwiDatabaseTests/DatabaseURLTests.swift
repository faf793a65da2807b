import KiwiDatabase
import NIOSSL
import Testing

@testable import PostgresNIO

@Suite("DATABASE_URL parsing")
struct DatabaseURLTests {
    @Test("reads host, port, user, password and database, percent-decoded")
    func readsEveryPart() throws {
        let configuration = try PostgresClient.Configuration(url: "postgres://ki%40wi:p%2Fss@db.internal:6543/kiwi?sslmode=disable")
        #expect(configuration.host == "db.internal")
        #expect(configuration.port == 6543)
        #expect(configuration.username == "ki@wi")
        #expect(configuration.password == "p/ss")
        #expect(configuration.database == "kiwi")
    }

    /// Whether the configuration for `url` encrypts (`disable`, `prefer` when the server offers it, or `require`) and
    /// how it checks the server's certificate (nil when it never encrypts).
    private func tls(of url: String) throws -> (encryption: String, verification: CertificateVerification?) {
        switch try PostgresClient.Configuration(url: url).tls.base {
        case .disable: ("disable", nil)
        case .prefer(let configuration): ("prefer", configuration.certificateVerification)
        case .require(let configuration): ("require", configuration.certificateVerification)
        }
    }

    @Test("sslmode=verify-full encrypts, and verifies the certificate and the host name")
    func verifyFullMode() throws {
        let tls = try tls(of: "postgres://u@db.internal/kiwi?sslmode=verify-full")
        #expect(tls.encryption == "require")
        #expect(tls.verification == .fullVerification)
    }

    @Test("sslmode=verify-ca encrypts, and verifies the certificate but not the host name")
    func verifyCAMode() throws {
        let tls = try tls(of: "postgres://u@db.internal/kiwi?sslmode=verify-ca")
        #expect(tls.encryption == "require")
        #expect(tls.verification == .noHostnameVerification)
    }

    @Test("sslmode=require encrypts without verifying the certificate")
    func requireMode() throws {
        let tls = try tls(of: "postgres://u@db.internal/kiwi?sslmode=require")
        #expect(tls.encryption == "require")
        #expect(tls.verification == CertificateVerification.none)
    }

    @Test("sslmode=prefer, and no sslmode, encrypt when the server offers it, without verifying the certificate", arguments: ["?sslmode=prefer", ""])
    func preferMode(_ query: String) throws {
        let tls = try tls(of: "postgres://u@db.internal/kiwi\(query)")
        #expect(tls.encryption == "prefer")
        #expect(tls.verification == CertificateVerification.none)
    }

    @Test("sslmode=disable never encrypts")
    func disableMode() throws {
        let tls = try tls(of: "postgres://u@db.internal/kiwi?sslmode=disable")
        #expect(tls.encryption == "disable")
        #expect(tls.verification == nil)
    }

    @Test("the pool closes an idle connection, and ends its timers, 10 s after the connection's last use, without pinging it")
    func shortPoolTimers() throws {
        let options = try PostgresClient.Configuration(url: "postgres://u@db.internal/kiwi").options
        #expect(options.connectionIdleTimeout == .seconds(10))
        #expect(options.keepAliveBehavior == nil)
    }

    @Test("refuses URLs it cannot use", arguments: ["mysql://u@h/db", "postgres:///db", "postgres://h/db", "postgres://u@h/db?sslmode=allow"])
    func refusesUnusable(_ url: String) {
        #expect(throws: DatabaseURLError.self) { try PostgresClient.Configuration(url: url) }
    }
}
