import Foundation
import HTTPTypes
import Hummingbird
import KiwiModels
import KiwiServiceSupport
import Logging

/// `POST /v1/auth/apple`: forwarded to the auth service, which verifies the Apple identity token and issues the
/// session; its answer (200, 400 or 401) reaches the client unchanged.
struct SignInController: Sendable {
    let accounts: any AccountActions
    /// A sign-in body is a JWT in a small JSON object.
    static let largestBody = 64 * 1024

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.post("apple", use: signIn)
    }

    @Sendable func signIn(request: Request, context: GatewayRequestContext) async throws -> Response {
        let body = try await request.collectedBody(largest: Self.largestBody)
        let answer: ForwardedResponse
        do {
            answer = try await accounts.signInWithApple(body: body, requestID: context.requestID)
        } catch {
            throw error.answer(logging: "cannot forward a sign-in", logger: context.logger)
        }
        // Only the documented answers pass through as they are; anything else (the auth service's 503 when its
        // database is down, say) is the gateway's 503 auth_unavailable.
        guard [200, 400, 401].contains(answer.status), (try? JSONSerialization.jsonObject(with: Data(answer.body.readableBytesView))) != nil else {
            throw AuthServiceUnavailable(description: "the auth service answered a sign-in with \(answer.status)")
                .answer(logging: "cannot forward a sign-in", logger: context.logger)
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: HTTPResponse.Status(code: answer.status), headers: headers, body: ResponseBody(byteBuffer: answer.body))
    }
}
