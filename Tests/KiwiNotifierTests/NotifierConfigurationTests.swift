import Foundation
import JWTKit
import KiwiConfiguration
import KiwiServiceSupport
import KiwiTopology
import Testing

@testable import KiwiNotifier

@Suite("The notifier's configuration")
struct NotifierConfigurationTests {
    let key = ES256PrivateKey()
    var complete: [String: String] {
        [
            "DATABASE_URL": "postgres://kiwi:kiwi@127.0.0.1:55432/kiwi?sslmode=disable",
            "AMQP_URL": "amqp://kiwi:kiwi@127.0.0.1:55672/%2F",
            "APNS_TEAM_ID": "KIWITEAM01",
            "APNS_KEY_ID": "KIWIKEY001",
            "APNS_KEY": key.pemRepresentation,
        ]
    }

    @Test("defaults to Apple's two hosts, ports 8084 and 9105, 64 pieces of news at once and the notifier's queue")
    func defaults() throws {
        let configuration = try NotifierConfiguration(environment: complete)
        #expect(configuration.endpoints.production == URL(string: "https://api.push.apple.com")!)
        #expect(configuration.endpoints.sandbox == URL(string: "https://api.sandbox.push.apple.com")!)
        #expect((configuration.basics.port, configuration.basics.metricsPort) == (8084, 9105))
        #expect(configuration.concurrency == 64)
        #expect(configuration.queue == KiwiTopology.notificationQueue)
        #expect(configuration.trustedCertificates == nil)
        #expect(configuration.signingKey.teamID == "KIWITEAM01")
        #expect(configuration.signingKey.keyID == "KIWIKEY001")
    }

    @Test("the key may come on one line, its line breaks written \\n, as a .env file holds it")
    func keyOnOneLine() throws {
        var environment = complete
        environment["APNS_KEY"] = key.pemRepresentation.replacingOccurrences(of: "\n", with: "\\n")
        let configuration = try NotifierConfiguration(environment: environment)
        #expect(configuration.signingKey.key.publicKey.pemRepresentation == key.publicKey.pemRepresentation)
    }

    @Test("a bad team id, key id and key are reported together; the key's text never")
    func badValues() {
        var environment = complete
        environment["APNS_TEAM_ID"] = "team"
        environment["APNS_KEY_ID"] = "KIWIKEY0011"
        environment["APNS_KEY"] = "-----BEGIN PRIVATE KEY-----\nsecret-looking\n-----END PRIVATE KEY-----"
        #expect {
            try NotifierConfiguration(environment: environment)
        } throws: { error in
            let error = error as? ConfigurationError
            return Set(error?.invalid.map(\.name) ?? []) == ["APNS_TEAM_ID", "APNS_KEY_ID", "APNS_KEY"] && !"\(error!)".contains("secret-looking")
        }
    }
}
