import KiwiMessaging
import Testing

@Suite("AMQP_URL parsing")
struct AMQPSettingsTests {
    @Test("reads every part of a full URL, percent-decoded")
    func fullURL() throws {
        let settings = try AMQPSettings(url: "amqp://k%40wi:p%3Ass@broker.internal:5673/kiwi%2Fprod")
        #expect(settings.user == "k@wi")
        #expect(settings.password == "p:ss")
        #expect(settings.host == "broker.internal")
        #expect(settings.port == 5673)
        #expect(settings.virtualHost == "kiwi/prod")
    }

    @Test("fills in rabbitmq-c's defaults for what the URL leaves out")
    func defaults() throws {
        let settings = try AMQPSettings(url: "amqp://localhost")
        #expect(settings.user == "guest")
        #expect(settings.password == "guest")
        #expect(settings.port == 5672)
        #expect(settings.virtualHost == "/")
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
}
