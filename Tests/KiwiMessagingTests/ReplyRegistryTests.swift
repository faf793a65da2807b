import Testing

@testable import KiwiMessaging

/// How the requester's registry tells the replies nobody waits for apart, for its dropped-reply metric.
@Suite("Reply registry")
struct ReplyRegistryTests {
    func reply(_ id: String?) -> AMQPMessage {
        var message = AMQPMessage(body: [])
        message.properties.correlationID = id
        return message
    }

    @Test("a reply to a waiting request is delivered, not dropped")
    func deliversToWaitingRequest() async throws {
        let registry = ReplyRegistry()
        registry.open("a")
        #expect(registry.deliver(reply("a")) == nil)
        #expect(try await registry.reply(for: "a").properties.correlationID == "a")
    }

    @Test("a second reply to an answered request is a duplicate")
    func secondReplyIsDuplicate() async throws {
        let registry = ReplyRegistry()
        registry.open("a")
        _ = registry.deliver(reply("a"))
        #expect(registry.deliver(reply("a")) == .duplicate)
        _ = try await registry.reply(for: "a")
        #expect(registry.deliver(reply("a")) == .duplicate)
    }

    @Test("a reply after its request stopped waiting is late")
    func replyAfterTimeoutIsLate() {
        let registry = ReplyRegistry()
        registry.open("a")
        registry.close("a")
        #expect(registry.deliver(reply("a")) == .late)
    }

    @Test("a reply no request of this instance asked for, or without a correlation id, is unknown")
    func strangerIsUnknown() {
        let registry = ReplyRegistry()
        #expect(registry.deliver(reply("never-asked")) == .unknown)
        #expect(registry.deliver(reply(nil)) == .unknown)
    }
}
