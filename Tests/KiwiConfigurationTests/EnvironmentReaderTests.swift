import Foundation
import KiwiConfiguration
import Testing

@Suite("Environment reader")
struct EnvironmentReaderTests {
    @Test("every missing required variable is listed, in the order read")
    func listsEveryMissingVariable() {
        var reader = EnvironmentReader(environment: ["B": "set"])
        let a = reader.required("A")
        let b = reader.required("B")
        let c = reader.required("C")
        #expect(throws: ConfigurationError(missing: ["A", "C"], invalid: [])) { try reader.finish(a, b, c) }
    }

    @Test("an empty value counts as missing")
    func emptyIsMissing() {
        var reader = EnvironmentReader(environment: ["TOKEN": ""])
        let token = reader.required("TOKEN")
        #expect(throws: ConfigurationError(missing: ["TOKEN"], invalid: [])) { try reader.finish(token) }
    }

    @Test("present values come back typed once nothing is missing")
    func returnsValues() throws {
        var reader = EnvironmentReader(environment: ["NAME": "kiwi", "COUNT": "7", "URL": "http://localhost:8081"])
        let name = reader.required("NAME")
        let count = reader.int("COUNT", default: 1, in: 1...10)
        let url = reader.requiredHTTPURL("URL")
        let (finishedName, finishedURL) = try reader.finish(name, url)
        #expect(finishedName == "kiwi")
        #expect(count == 7)
        #expect(finishedURL.port == 8081)
    }

    @Test("defaults apply when a variable is unset")
    func defaultsApply() throws {
        var reader = EnvironmentReader(environment: [:])
        #expect(reader.port("PORT", default: 8080) == 8080)
        #expect(reader.string("MODEL", default: "gpt-4o") == "gpt-4o")
        #expect(reader.optional("ABSENT") == nil)
        _ = try reader.finish()
    }

    @Test("an unparseable value is reported with its name and the rule it broke")
    func reportsInvalidValues() {
        var reader = EnvironmentReader(environment: ["PORT": "eighty", "LIMIT": "0", "URL": "ftp://x"])
        _ = reader.port("PORT", default: 8080)
        _ = reader.int("LIMIT", default: 4, in: 1...1000)
        _ = reader.requiredHTTPURL("URL")
        #expect {
            try reader.finish()
        } throws: { error in
            let names = (error as? ConfigurationError)?.invalid.map(\.name)
            return names == ["PORT", "LIMIT", "URL"]
                && "\(error)".contains("LIMIT must be a whole number from 1 to 1000")
        }
    }

    @Test("the message names missing and invalid variables together")
    func describesEverything() {
        let error = ConfigurationError(missing: ["DATABASE_URL", "AMQP_URL"], invalid: [.init(name: "PORT", reason: "must be a port")])
        #expect(error.description == "missing required environment variables: DATABASE_URL, AMQP_URL; PORT must be a port")
    }

    @Test("KIWI_ENV accepts production and development only")
    func deploymentEnvironment() throws {
        #expect(try DeploymentEnvironment(parsing: "Development") == .development)
        #expect(throws: (any Error).self) { try DeploymentEnvironment(parsing: "staging") }
    }
}
