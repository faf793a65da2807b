import Crypto
import Foundation
import Hummingbird
import KiwiModels
import KiwiServiceSupport

/// Lets a request through only with `Authorization: Bearer <INTERNAL_API_TOKEN>`; anything else is 403
/// `forbidden`, so the gateway can tell its own misconfiguration from an unknown session (401).
///
/// The comparison takes the same time whatever the presented token: both sides are hashed to 32 bytes
/// and every byte is compared, so timing reveals neither length nor matching prefix.
struct InternalTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    private let expected: [UInt8]

    init(token: String) {
        expected = Array(SHA256.hash(data: Data(token.utf8)))
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let header = request.headers[.authorization] ?? ""
        let presented = Array(SHA256.hash(data: Data((header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : "").utf8)))
        var difference: UInt8 = 0
        for (left, right) in zip(expected, presented) { difference |= left ^ right }
        guard difference == 0, header.hasPrefix("Bearer ") else {
            throw APIError(.forbidden, .forbidden, "The internal API token is missing or wrong.")
        }
        return try await next(request, context)
    }
}
