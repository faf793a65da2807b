import Foundation
import KiwiAPIClient
import OpenAPIRuntime
import Testing

@testable import KiwiCLI

/// `failure(_:)`: the one place every command turns an answer it does not handle into what it prints.
@Suite("kiwi: the sentence for an answer a command does not handle")
struct FailureSentenceTests {
    static func error(_ code: String, _ message: String) -> Components.Schemas._Error {
        Components.Schemas._Error(error: code, message: message)
    }

    @Test("a documented error shows the body's message with its status and code")
    func documentedError() {
        let answer = Operations.SaveRecipe.Output.conflict(
            .init(headers: .init(xRequestId: "r-1"), body: .json(Self.error("recipe_box_full", "Your box is full.")))
        )
        #expect(failure(answer).description == "Your box is full. (HTTP 409, recipe_box_full)")
    }

    @Test("a shared error response reads the same way, and an expired session says to sign in again")
    func sharedErrorResponse() {
        let unavailable = Operations.GetQuota.Output.serviceUnavailable(
            .init(headers: .init(xRequestId: "r-1"), body: .json(Self.error("store_unavailable", "Try later.")))
        )
        #expect(failure(unavailable).description == "Try later. (HTTP 503, store_unavailable)")
        let expired = Operations.GetQuota.Output.unauthorized(
            .init(headers: .init(xRequestId: "r-1"), body: .json(Self.error("unauthorized", "No session.")))
        )
        #expect(failure(expired).description.contains("Run `kiwi login --dev` again"))
    }

    @Test("an undocumented answer names its status")
    func undocumentedAnswer() {
        let answer = Operations.GetQuota.Output.undocumented(statusCode: 418, UndocumentedPayload())
        #expect(failure(answer).description == "Kiwi answered an unexpected HTTP 418.")
    }
}
