import Foundation
import HTTPTypes
import Hummingbird
import KiwiModels
import NIOCore

/// Refuses, in one place for every service, the text PostgreSQL cannot store: U+0000 (NUL), which no `text` column
/// takes (SQLSTATE 22021). Every other character a client can send is storable: the databases are UTF-8, and Swift
/// strings cannot hold the lone surrogates that would be the only other kind.
///
/// It looks where client text reaches a service: the query string and the path (`%00`), and a JSON body (`\u0000`,
/// or a raw NUL byte; a body without a `Content-Type` counts as JSON, as the JSON routes read it). A NUL in the query
/// or a JSON body is 400 `bad_request`; one in the path names nothing, so it is 404 `not_found`, as any unknown path
/// is. Headers cannot carry a NUL (the HTTP parser refuses it), and the only text field of a multipart upload (a
/// scan's `mode`) is checked against its two values. A JSON body is read here, up to ``largestJSONBody``, and handed
/// on as read; every JSON route takes less.
public struct StorableTextMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The largest JSON body any route takes (the gateway's sign-in and recipe routes); a larger one is 400.
    public static var largestJSONBody: Int { 64 * 1024 }

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.containsEncodedNUL(request.uri.path) {
            throw APIError(.notFound, .notFound, "There is no \(request.uri.path) here.")
        }
        if let query = request.uri.query, Self.containsEncodedNUL(query) {
            throw APIError.badRequest(Self.refusal)
        }
        // The JSON routes read a body without a type as JSON too.
        guard request.headers[.contentType].map(Self.isJSON) ?? true else { return try await next(request, context) }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: Self.largestJSONBody)
        } catch {
            throw APIError.badRequest("A JSON body may be at most \(Self.largestJSONBody / 1024) KiB.")
        }
        if Self.containsNUL(json: body.readableBytesView) { throw APIError.badRequest(Self.refusal) }
        return try await next(request, context)
    }

    static var refusal: String { "Text may not contain U+0000 (NUL); Kiwi cannot store it." }

    /// Whether a URI component has a percent-encoded NUL (`%00`; a raw one cannot be in a request line).
    static func containsEncodedNUL(_ component: some StringProtocol) -> Bool {
        component.contains("%00")
    }

    /// Whether `contentType` is `application/json` or a `+json` type.
    static func isJSON(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }

    /// Whether JSON text holds a NUL: as the escape `\u0000` in a string, or as a raw byte (which JSON forbids anyway).
    /// A backslash starts an escape wherever it stands, so `\\u0000`, an escaped backslash followed by `u0000`, is
    /// not one.
    static func containsNUL(json bytes: some Collection<UInt8>) -> Bool {
        let nulEscape = Array("u0000".utf8)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == 0 { return true }
            index = bytes.index(after: index)
            guard byte == UInt8(ascii: "\\"), index != bytes.endIndex else { continue }
            if bytes[index...].starts(with: nulEscape) { return true }
            index = bytes.index(after: index)
        }
        return false
    }
}
