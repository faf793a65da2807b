import KiwiDatabase
import PostgresNIO
import Testing

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

    @Test("accepts every sslmode libpq users write", arguments: ["disable", "prefer", "require", "verify-ca", "verify-full"])
    func acceptsSSLModes(_ mode: String) {
        #expect(throws: Never.self) { try PostgresClient.Configuration(url: "postgres://u@db.internal/kiwi?sslmode=\(mode)") }
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
