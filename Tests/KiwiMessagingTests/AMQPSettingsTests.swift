import KiwiMessaging
import Testing

@Suite("AMQP_URL and AMQP_URLS parsing")
struct AMQPSettingsTests {
    @Test("reads every part of a full URL, percent-decoded")
    func fullURL() throws {
        let node = try #require(try AMQPSettings(url: "amqp://k%40wi:p%3Ass@broker.internal:5673/kiwi%2Fprod").nodes.only)
        #expect(node.user == "k@wi")
        #expect(node.password == "p:ss")
        #expect(node.host == "broker.internal")
        #expect(node.port == 5673)
        #expect(node.virtualHost == "kiwi/prod")
    }

    @Test("fills in rabbitmq-c's defaults for what the URL leaves out")
    func defaults() throws {
        let node = try #require(try AMQPSettings(url: "amqp://localhost").nodes.only)
        #expect(node.user == "guest")
        #expect(node.password == "guest")
        #expect(node.port == 5672)
        #expect(node.virtualHost == "/")
    }

    @Test("refuses what is not an amqp URL", arguments: ["http://localhost", "not a url", "amqp://host:port/"])
    func refusesMalformed(_ url: String) {
        #expect(throws: AMQPURLError.self) { try AMQPSettings(url: url) }
    }

    @Test("refuses amqps until TLS is supported")
    func refusesTLS() {
        #expect(throws: AMQPURLError.self) { try AMQPSettings(url: "amqps://broker:5671/") }
    }

    @Test("its description leaves the password out")
    func descriptionHidesPassword() throws {
        let settings = try AMQPSettings(url: "amqp://kiwi:s3cret@127.0.0.1:55672/%2F")
        #expect(settings.description == "amqp://kiwi@127.0.0.1:55672/%2F")
    }

    @Test("a list gives its nodes in order, spaces around the commas allowed")
    func listKeepsOrder() throws {
        let settings = try AMQPSettings(urlList: "amqp://kiwi:a@rabbit-0:5672/%2F, amqp://kiwi:b@rabbit-1:5673/%2F ,amqp://rabbit-2")
        #expect(settings.nodes.map(\.host) == ["rabbit-0", "rabbit-1", "rabbit-2"])
        #expect(settings.nodes.map(\.port) == [5672, 5673, 5672])
        #expect(settings.nodes.map(\.password) == ["a", "b", "guest"])
    }

    @Test("a list's description names every node, without passwords")
    func listDescriptionHidesPasswords() throws {
        let settings = try AMQPSettings(urlList: "amqp://kiwi:s3cret@rabbit-0:5672/%2F,amqp://kiwi:s3cret@rabbit-1:5672/%2F")
        #expect(settings.description == "amqp://kiwi@rabbit-0:5672/%2F,amqp://kiwi@rabbit-1:5672/%2F")
    }

    @Test(
        "a list with an empty or unreadable entry is refused, naming the entry",
        arguments: [
            ("amqp://rabbit-0,,amqp://rabbit-2", "entry 2 is empty"), ("amqp://rabbit-0,", "entry 2 is empty"),
            ("amqp://rabbit-0,http://rabbit-1", "entry 2 must look like"), ("amqps://rabbit-0,amqp://rabbit-1", "entry 1 uses amqps://"),
        ]
    )
    func listRefusesBadEntry(_ list: String, _ reason: String) {
        let error = #expect(throws: AMQPURLError.self) { try AMQPSettings(urlList: list) }
        #expect(error?.description.hasPrefix(reason) == true, "\(error.map { "\($0)" } ?? "no error")")
    }

    @Test("a list naming a node twice, even with another password, is refused")
    func listRefusesDuplicates() {
        let error = #expect(throws: AMQPURLError.self) { try AMQPSettings(urlList: "amqp://kiwi:a@rabbit-0/%2F,amqp://kiwi:b@rabbit-0:5672/%2F") }
        #expect(error?.description == "lists rabbit-0:5672 twice")
    }
}

extension Array {
    /// The one element, or nil when there are none or several.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
